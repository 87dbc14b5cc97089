package dev.modelgate.idempotency.core;

import java.math.BigDecimal;
import java.util.List;
import java.util.function.Consumer;

/**
 * The part of a fingerprint that comes from the request body: bytes compared byte for byte, a JSON
 * value compared by meaning (written by a JSON adapter through {@link CanonicalJsonWriter}), or
 * multipart parts compared part by part.
 */
public abstract class CanonicalBody {

	private static final CanonicalBody EMPTY = bytes(new byte[0]);

	abstract void writeTo(Hashing hashing);

	/** A body with no content. */
	public static CanonicalBody empty() {
		return EMPTY;
	}

	/** A body compared byte for byte. */
	public static CanonicalBody bytes(byte[] body) {
		return bytes(body, 0, body.length);
	}

	/** A slice of a buffer compared byte for byte (avoids copying a captured body). */
	public static CanonicalBody bytes(byte[] buffer, int offset, int length) {
		return new CanonicalBody() {
			@Override
			void writeTo(Hashing hashing) {
				hashing.tag('B').field(buffer, offset, length);
			}
		};
	}

	/**
	 * A JSON value, compared by meaning.
	 * @param value writes the parsed value, members sorted by name, when the fingerprint is computed
	 */
	public static CanonicalBody json(Consumer<CanonicalJsonWriter> value) {
		return new CanonicalBody() {
			@Override
			void writeTo(Hashing hashing) {
				hashing.tag('J');
				value.accept(new HashingJsonWriter(hashing));
			}
		};
	}

	/**
	 * A multipart body, compared part by part in the order received.
	 * @param parts each part's name, file name (or empty) and content bytes
	 */
	public static CanonicalBody parts(List<Part> parts) {
		return new CanonicalBody() {
			@Override
			void writeTo(Hashing hashing) {
				hashing.tag('M').length(parts.size());
				for (Part part : parts) {
					hashing.field(part.name()).field(part.fileName()).field(part.content());
				}
			}
		};
	}

	/** One part of a multipart body. */
	public record Part(String name, String fileName, byte[] content) {
	}

	/** Writes each JSON event as a tagged field, so that no two different values hash alike. */
	private static final class HashingJsonWriter implements CanonicalJsonWriter {

		private final Hashing hashing;

		HashingJsonWriter(Hashing hashing) {
			this.hashing = hashing;
		}

		@Override
		public void startObject(int members) {
			this.hashing.tag('o').length(members);
		}

		@Override
		public void name(String name) {
			this.hashing.field(name);
		}

		@Override
		public void startArray(int elements) {
			this.hashing.tag('a').length(elements);
		}

		@Override
		public void string(String value) {
			this.hashing.tag('s').field(value);
		}

		@Override
		public void number(BigDecimal value) {
			// Unscaled value and scale of the stripped decimal: exact, and short even for 1e999999.
			BigDecimal decimal;
			try {
				decimal = value.stripTrailingZeros();
			}
			catch (ArithmeticException ex) {
				// Stripping would push the scale past int (100e2147483647): compare it as read.
				this.hashing.tag('N').field(value.toString());
				return;
			}
			this.hashing.tag('n').field(decimal.unscaledValue().toString()).length(decimal.scale());
		}

		@Override
		public void bool(boolean value) {
			this.hashing.tag(value ? 't' : 'f');
		}

		@Override
		public void nullValue() {
			this.hashing.tag('z');
		}

	}

}
