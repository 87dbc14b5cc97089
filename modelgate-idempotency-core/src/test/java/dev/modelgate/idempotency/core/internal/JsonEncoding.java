package dev.modelgate.idempotency.core.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** The byte encodings Jackson detects in a JSON body, each with and without a byte order mark. */
enum JsonEncoding {

	UTF_8(new byte[0]),

	UTF_8_BOM(new byte[] { (byte) 0xEF, (byte) 0xBB, (byte) 0xBF }),

	UTF_16BE(new byte[0]),

	UTF_16BE_BOM(new byte[] { (byte) 0xFE, (byte) 0xFF }),

	UTF_16LE(new byte[0]),

	UTF_16LE_BOM(new byte[] { (byte) 0xFF, (byte) 0xFE }),

	UTF_32BE(new byte[0]),

	UTF_32BE_BOM(new byte[] { 0, 0, (byte) 0xFE, (byte) 0xFF }),

	UTF_32LE(new byte[0]),

	UTF_32LE_BOM(new byte[] { (byte) 0xFF, (byte) 0xFE, 0, 0 });

	private final byte[] byteOrderMark;

	JsonEncoding(byte[] byteOrderMark) {
		this.byteOrderMark = byteOrderMark;
	}

	byte[] encode(String text) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		out.writeBytes(this.byteOrderMark);
		switch (this) {
			case UTF_8, UTF_8_BOM -> out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
			case UTF_16BE, UTF_16BE_BOM -> out.writeBytes(text.getBytes(StandardCharsets.UTF_16BE));
			case UTF_16LE, UTF_16LE_BOM -> out.writeBytes(text.getBytes(StandardCharsets.UTF_16LE));
			default -> text.codePoints().forEach((codePoint) -> writeUtf32(out, codePoint));
		}
		return out.toByteArray();
	}

	private void writeUtf32(ByteArrayOutputStream out, int codePoint) {
		int[] bytes = { codePoint >>> 24, (codePoint >>> 16) & 0xFF, (codePoint >>> 8) & 0xFF, codePoint & 0xFF };
		boolean bigEndian = (this == UTF_32BE || this == UTF_32BE_BOM);
		for (int i = 0; i < 4; i++) {
			out.write(bytes[bigEndian ? i : 3 - i]);
		}
	}

}
