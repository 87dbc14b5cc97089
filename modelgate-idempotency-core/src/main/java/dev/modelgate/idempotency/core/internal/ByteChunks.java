package dev.modelgate.idempotency.core.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A body held as a list of fixed-size arrays rather than one array of its own size.
 *
 * <p>G1 stores any array of half a region or more as a humongous object, in regions of its own that
 * only some collections reclaim; in a 256 MiB heap a region is 1 MiB, so a 1 MiB body read into one
 * array is humongous, and many of them at once end in full collections. Chunks of
 * {@value #CHUNK_SIZE} bytes stay young garbage however large the body is.
 *
 * <p>Every chunk but the last is full, so a position in the body is found with a shift and a mask.
 * The bytes are not changed once read.
 */
public final class ByteChunks {

	/** Bytes in every chunk but the last: far below half the smallest G1 region (1 MiB). */
	public static final int CHUNK_SIZE = 1 << 16;

	/** Eight bytes of an array read as one little-endian {@code long}, the first byte lowest. */
	private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

	private static final ByteChunks EMPTY = new ByteChunks(new byte[][] { new byte[0] }, 0, 31);

	private final byte[][] chunks;

	private final int length;

	/** log2 of the size of a full chunk. */
	private final int shift;

	private final int mask;

	private ByteChunks(byte[][] chunks, int length, int shift) {
		this.chunks = chunks;
		this.length = length;
		this.shift = shift;
		this.mask = (int) ((1L << shift) - 1);
	}

	/**
	 * {@return the bytes of an array, without copying it}
	 * @param bytes the body; not changed afterwards
	 */
	public static ByteChunks of(byte[] bytes) {
		// One chunk: with a shift of 31 every position is in chunk 0.
		return (bytes.length == 0) ? EMPTY : new ByteChunks(new byte[][] { bytes }, bytes.length, 31);
	}

	/**
	 * Reads a stream to its end, in chunks of {@value #CHUNK_SIZE} bytes.
	 * @param in the stream, bounded by the caller
	 * @param expected how many bytes the stream is expected to have (a declared content length), or a
	 * negative number when unknown; it sizes the last chunk, and a longer stream is read on regardless
	 * @return what the stream held
	 * @throws IOException when the stream fails, or holds more than {@code Integer.MAX_VALUE} bytes
	 */
	public static ByteChunks read(InputStream in, long expected) throws IOException {
		return read(in, expected, Integer.numberOfTrailingZeros(CHUNK_SIZE));
	}

	static ByteChunks read(InputStream in, long expected, int shift) throws IOException {
		int chunkSize = 1 << shift;
		List<byte[]> chunks = new ArrayList<>();
		long total = 0;
		while (true) {
			long remaining = expected - total;
			int size = (remaining >= 0 && remaining < chunkSize) ? (int) remaining : chunkSize;
			byte[] chunk = new byte[size];
			chunks.add(chunk);
			int read = in.readNBytes(chunk, 0, size);
			if (read == size && size < chunkSize) {
				// The expected length is reached: a longer stream goes on in a full chunk.
				int next = in.read();
				if (next >= 0) {
					byte[] full = new byte[chunkSize];
					System.arraycopy(chunk, 0, full, 0, size);
					full[size] = (byte) next;
					chunks.set(chunks.size() - 1, full);
					read = size + 1 + in.readNBytes(full, size + 1, chunkSize - size - 1);
				}
			}
			total += read;
			if (total > Integer.MAX_VALUE) {
				throw new IOException("A body over " + Integer.MAX_VALUE + " bytes cannot be held");
			}
			if (read == 0) {
				chunks.remove(chunks.size() - 1);
			}
			if (read < chunkSize) {
				break;
			}
		}
		if (total == 0) {
			return EMPTY;
		}
		return new ByteChunks(chunks.toArray(byte[][]::new), (int) total, shift);
	}

	/** {@return how many bytes the body has} */
	public int length() {
		return this.length;
	}

	/** {@return a stream of the body, from its start} Each call gives a new stream. */
	public InputStream newInputStream() {
		return new ChunksInputStream();
	}

	/**
	 * {@return the body as one array} Only for callers that need one anyway (a form's text).
	 */
	public byte[] toByteArray() {
		byte[] copy = new byte[this.length];
		copyTo(0, copy, 0, this.length);
		return copy;
	}

	/** The byte at {@code index}, unsigned. */
	int at(int index) {
		return this.chunks[index >>> this.shift][index & this.mask] & 0xFF;
	}

	/**
	 * Skips plain string text: {@return the first position from {@code start} (or {@code end}) of a
	 * byte that is a quote, a backslash, a control character or not ASCII}
	 */
	int skipPlainText(int start, int end) {
		int position = start;
		while (position < end) {
			byte[] chunk = this.chunks[position >>> this.shift];
			int offset = position & this.mask;
			int stop = offset + Math.min(chunk.length - offset, end - position);
			int found = skipPlainText(chunk, offset, stop);
			if (found < stop) {
				return position + (found - offset);
			}
			position += stop - offset;
		}
		return end;
	}

	/**
	 * The first index from {@code from} to {@code to} in one chunk of a byte that ends plain text,
	 * or {@code to}: eight bytes at a time, each word tested for all four kinds of byte at once
	 * (SWAR; a byte's high bit is set in the mask where it is below 0x20, equal to a quote or a
	 * backslash, or not ASCII, and the lowest such bit is always exact).
	 */
	private static int skipPlainText(byte[] chunk, int from, int to) {
		int i = from;
		for (; i + Long.BYTES <= to; i += Long.BYTES) {
			long word = (long) LONGS.get(chunk, i);
			long quotes = word ^ 0x2222222222222222L;
			long backslashes = word ^ 0x5C5C5C5C5C5C5C5CL;
			long stops = ((word - 0x2020202020202020L) & ~word) | word
					| ((quotes - 0x0101010101010101L) & ~quotes)
					| ((backslashes - 0x0101010101010101L) & ~backslashes);
			stops &= 0x8080808080808080L;
			if (stops != 0) {
				return i + (Long.numberOfTrailingZeros(stops) >>> 3);
			}
		}
		for (; i < to; i++) {
			byte b = chunk[i];
			// Non-ASCII bytes are negative.
			if (b < 0x20 || b == '"' || b == '\\') {
				return i;
			}
		}
		return to;
	}

	/** Copies {@code length} bytes from position {@code start} into {@code target}. */
	void copyTo(int start, byte[] target, int targetOffset, int length) {
		int position = start;
		int copied = 0;
		while (copied < length) {
			byte[] chunk = this.chunks[position >>> this.shift];
			int offset = position & this.mask;
			int n = Math.min(chunk.length - offset, length - copied);
			System.arraycopy(chunk, offset, target, targetOffset + copied, n);
			copied += n;
			position += n;
		}
	}

	/** Feeds {@code length} bytes from position {@code start} to a hashing, chunk by chunk. */
	void update(Hashing hashing, int start, int length) {
		int position = start;
		int fed = 0;
		while (fed < length) {
			byte[] chunk = this.chunks[position >>> this.shift];
			int offset = position & this.mask;
			int n = Math.min(chunk.length - offset, length - fed);
			hashing.bytes(chunk, offset, n);
			fed += n;
			position += n;
		}
	}

	int chunkCount() {
		return (this.length == 0) ? 0 : this.chunks.length;
	}

	byte[] chunk(int index) {
		return this.chunks[index];
	}

	private final class ChunksInputStream extends InputStream {

		private int position;

		@Override
		public int read() {
			return (this.position < ByteChunks.this.length) ? at(this.position++) : -1;
		}

		@Override
		public int read(byte[] b, int off, int len) {
			Objects.checkFromIndexSize(off, len, b.length);
			if (len == 0) {
				return 0;
			}
			int n = Math.min(len, available());
			if (n == 0) {
				return -1;
			}
			copyTo(this.position, b, off, n);
			this.position += n;
			return n;
		}

		@Override
		public long skip(long n) {
			int skipped = (int) Math.max(0, Math.min(n, available()));
			this.position += skipped;
			return skipped;
		}

		@Override
		public int available() {
			return ByteChunks.this.length - this.position;
		}

	}

}
