package dev.modelgate.idempotency.core.internal;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * Full {@link ByteChunks#CHUNK_SIZE}-byte chunks kept for reuse, so that the bodies of large keyed
 * requests are read into the same arrays again rather than into new ones each time.
 *
 * <p>A request body is held while its handler runs, which under load is long enough for the young
 * collections of a small heap to copy it several times and then promote it: 32 requests of 1 MiB in
 * flight in a 256 MiB heap promoted their bodies faster than concurrent marking could reclaim them,
 * and ended in full collections. Chunks in the pool are promoted once and then stay; a body read from
 * them allocates nothing.
 *
 * <p>The pool holds at most {@link #capacity()} chunks: a chunk taken when it is empty is a new array,
 * and a chunk given back when it is full is left to the collector. Only full chunks are pooled; a body
 * smaller than a chunk, and the last part of a larger one, are arrays of their own size, as before.
 * It fills only as far as requests in flight needed, and {@link #trim()}, called at a fixed interval,
 * lets go of the chunks no request took since the last call: pooled memory that sits idle is handed
 * back to the rest of the application (measured: 32 MiB kept in a 256 MiB heap cost an unkeyed load
 * after a keyed one its full collections).
 */
public final class ChunkPool {

	/** A pool that keeps nothing: every chunk is a new array. */
	public static final ChunkPool NONE = new ChunkPool(0);

	/** At most this much of the heap, and never more than {@value #MAX_HEAP_POOL_BYTES} bytes, is kept. */
	private static final int HEAP_FRACTION = 8;

	private static final long MAX_HEAP_POOL_BYTES = 64L << 20;

	private final int capacity;

	private final ArrayBlockingQueue<byte[]> free;

	/**
	 * The fewest chunks the pool held since the last {@link #trim()}: that many were not needed in the
	 * meantime. Updated without a lock, so it may be a little off, which only trims a chunk more or less.
	 */
	private volatile int lowWater;

	private ChunkPool(int capacity) {
		this.capacity = capacity;
		this.free = (capacity > 0) ? new ArrayBlockingQueue<>(capacity) : null;
	}

	/**
	 * {@return a pool of its own}
	 * @param capacity how many chunks it keeps at most; 0 keeps none
	 */
	public static ChunkPool of(int capacity) {
		if (capacity < 0) {
			throw new IllegalArgumentException("capacity must not be negative, was " + capacity);
		}
		return (capacity == 0) ? NONE : new ChunkPool(capacity);
	}

	/**
	 * {@return a pool sized for this JVM's heap} It keeps up to an eighth of the maximum heap, at most
	 * 64 MiB ({@value #MAX_HEAP_POOL_BYTES} bytes): 32 MiB, 32 bodies of 1 MiB, in a 256 MiB heap.
	 */
	public static ChunkPool forHeap() {
		return of(capacityForHeap(Runtime.getRuntime().maxMemory()));
	}

	static int capacityForHeap(long maxHeapBytes) {
		long bytes = Math.min(maxHeapBytes / HEAP_FRACTION, MAX_HEAP_POOL_BYTES);
		return (int) Math.max(0, bytes / ByteChunks.CHUNK_SIZE);
	}

	/** {@return how many chunks the pool keeps at most} */
	public int capacity() {
		return this.capacity;
	}

	/** {@return how many chunks the pool holds now, ready to be taken} */
	public int available() {
		return (this.free != null) ? this.free.size() : 0;
	}

	/**
	 * Lets go of the chunks that no request took since the last call, and {@return how many} Called
	 * at a fixed interval, it keeps what a steady load reuses, and gives back to the collector what
	 * sat in the pool for one to two intervals.
	 */
	public int trim() {
		if (this.free == null) {
			return 0;
		}
		int unused = Math.min(this.lowWater, this.free.size());
		for (int i = 0; i < unused; i++) {
			this.free.poll();
		}
		this.lowWater = this.free.size();
		return unused;
	}

	/** A full-size chunk, from the pool when it has one; its contents are whatever it held last. */
	byte[] take() {
		byte[] chunk = null;
		if (this.free != null) {
			chunk = this.free.poll();
			int held = this.free.size();
			if (held < this.lowWater) {
				this.lowWater = held;
			}
		}
		return (chunk != null) ? chunk : new byte[ByteChunks.CHUNK_SIZE];
	}

	/** Gives a full-size chunk back, which its giver no longer reads or writes. */
	void give(byte[] chunk) {
		if (this.free != null && chunk.length == ByteChunks.CHUNK_SIZE) {
			this.free.offer(chunk);
		}
	}

}
