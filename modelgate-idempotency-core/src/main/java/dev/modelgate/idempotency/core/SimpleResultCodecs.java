package dev.modelgate.idempotency.core;

import java.nio.charset.StandardCharsets;

/** The {@link ResultCodec}s that need no configuration. */
final class SimpleResultCodecs {

	static final ResultCodec<byte[]> BYTES = new ResultCodec<>() {

		@Override
		public byte[] encode(byte[] value) {
			return value.clone();
		}

		@Override
		public byte[] decode(byte[] bytes) {
			return bytes.clone();
		}

	};

	static final ResultCodec<String> UTF8 = new ResultCodec<>() {

		@Override
		public byte[] encode(String value) {
			return value.getBytes(StandardCharsets.UTF_8);
		}

		@Override
		public String decode(byte[] bytes) {
			return new String(bytes, StandardCharsets.UTF_8);
		}

	};

	static final ResultCodec<Object> NONE = new ResultCodec<>() {

		@Override
		public byte[] encode(Object value) {
			return new byte[0];
		}

		@Override
		public Object decode(byte[] bytes) {
			return null;
		}

	};

	private SimpleResultCodecs() {
	}

}
