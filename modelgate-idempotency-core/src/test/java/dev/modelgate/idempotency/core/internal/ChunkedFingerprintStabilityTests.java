package dev.modelgate.idempotency.core.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fingerprints of a corpus of bodies, recorded with the implementation that read each body from one
 * array (commit 6d4108f): a body read in chunks of any size must hash exactly as it did, or a fleet
 * would stop recognising the keys its older members stored.
 */
class ChunkedFingerprintStabilityTests {

	/** The JSON fingerprint (with query {@code b=2&a=1}), then the byte fingerprint, of each body in order. */
	private static final String[][] RECORDED = {
			{ "83eb977fc4ebc20ddf9d0852c6e0614f695e8fdd29827768b9a14d3b73077e0b",
					"bfb5fd96510e261af644a985a851c8fefff6e241ac6d598d5bfdfa0adfdc0bf0" },
			{ "83eb977fc4ebc20ddf9d0852c6e0614f695e8fdd29827768b9a14d3b73077e0b",
					"4ef959156798cbb8e112efbdb18392ea58b9ed2fa100de0a217a1b0f4e71a1d3" },
			{ "83eb977fc4ebc20ddf9d0852c6e0614f695e8fdd29827768b9a14d3b73077e0b",
					"35f48ffe1a83fd4bf83d3d9b14f02ae92e6d8c1b8e76d33feaee4d639cbf0ca4" },
			{ "9ef2e7009a5ab3963268222ebd4f01340e6e48df5dbdd0315758684f9d63da67",
					"4f3643c5d308cb3de723ff8b7a33da0f66e79c4571db7f3ae0c5835f9c8e4ff2" },
			{ "25b62494a32d51001fa085c312e2600f0ff762239e9ec1657588bc8f44f3b6f2",
					"90f52f21a8c5f93af110a61856be7c62bdb29de68599a32c8b12dc3fd8feaafe" },
			{ "b054fb0cd6889caed7d7f9ddb8e8bfb4117ac6e772bdc2699e8b2c1d0332ec36",
					"f133d77058c3eef80b743e08e21b830772b3f56a63ff38ff6bf90562e15934e5" },
			{ "58d3577db6b2d829a0fa4c3903131d28255bf9432c9471dfd41ae61e19f57e2f",
					"58dca6c21fda201e7352f2d7b1c1a1dab452bca14d90caa965df913dd2200adc" },
			{ "571347b95e49a9ad42f0406ad68475c974ccfd5cf0aad514d46d1207fb7d823a",
					"47a586e2a12323d9bc3987c36730434a7799b75afbe4b4188181680c1a3fbbdb" },
			{ "76d532dc1a58539e9e3b06155f04a2f9c1756b7452fd3d182a1af2e51e3a5b76",
					"286d0f94c62d6b2c5d201c047afcc16e5be990858d5b10d4b702531f94e22981" },
			{ "573a44df673175b9580da99ea8a4b33a802dde88458895058bc599f951740354",
					"d7d89803cf4aa14772b351f22ff65d90621551fdf374a2bb56f876d49c7ba70c" },
			{ "f8dd5e50dd7781f7d1e06c13071f271a41c42f239695a5ee5a44bab857af9d1e",
					"e7d5656947f7d09105fd403dc74601e72ac597082f041d7e5192a008dff3298f" },
			{ "8c8c1b53a9f18a41d55376df62f1ec81f6ad1d703f01c46b002fdbc2e4f49e6f",
					"b963f1e564c905389751b577d017ccf3170c61a7d5fe5873ce2a6f8b0e22ed67" },
			{ "3954a29b3a54f818624a9cbf6782a816dbfea3783f9f639b9ac4a5c59909fe1f",
					"489fe208cc0c3fc215449b09c729fc0d884564447a941b8836d31bf606ccd9fd" },
			{ "ab3d693c1cdcb1fc0953606a1079fbabe1d306994c2ca406cce62f589129da97",
					"d3fcc36f4171e831ca0402a1ae32d16580a7a127c0a0561502efd7c1e3a151aa" },
			{ "27ffb832bd388bdebd76197a099618cdd832318f7aff6f3d3f3df4e61b82c575",
					"bc71eda3fe3fb0a2b22ca2ead002461157dfccc7ecdbeca78395015cd40dfa3d" },
			{ "159c061429afe21a37e71cb54b699d532d532cd9baaab95acfdb46e56b41a7ae",
					"376f3308e9c44f2f233fe8b99d624af8f783b5b1422b1493da59cb991971c8c8" },
			{ "ae870bb80a498825c5591e6cb60dd0c10fb0abff25221421877345c17286eb6e",
					"7b81718f325035feff1aba7e4e97391fa76173d5d775e55e854781dd8a6e1f51" },
			{ "81ed1100927566b56f76cd039ece3147b5304a9322c926c3eaade65d67ab26fe",
					"546c8904bcf0f8e905e6657ff07f20fdf80a97cbeac02394929ad6152a2efc28" },
			{ "05e010573652882e80a86c41ce0b31300fa1e7c8f4164bc21f13014178ea7d93",
					"defb2a7e810cad6c68df74fd2bb89d302a5ac40b55fbe8b590f69814bfede778" },
			{ "d436dbbffce2a8ef0cf960a1c285c9ca16e5e27623b22dd719c6daaa8a16b448",
					"84d6bb68c10d5a0b7e99df56e181592a641e789a156163c6a9b9a54418d4ccdb" },
			{ "7f763663e69dd427112d93d579cf64d39aa896499f12df6d0c7efa8f23ae10d5",
					"41bee0dc9be127bab31a92f9b913aacee7a9288406074b097ec1d24383c26d1a" },
			{ "eef2cd2fb1dbc968327b2fe70a6a47de6c709d4676b92c36a74b0a53565a4ac0",
					"6b10d5c8f5f10be0d3d92b36401274941918850031fafcc8f91c3a774f85eac2" },
			{ "a55c85c2cbfb26c6018f4d6dd17c7494da889724631a15811986463c0276fd5d",
					"e9e73014df8c59ef330c114ebc28c610820a78000fe6599dec9702ee7b7f7ebf" },
			{ "16c5f191c58b71f5876ab65ea86e70d87962c478a63aa8470fce79af956dad03",
					"9b56b11f0234a5919d38df721bdc22be155a839ba2e3a5d7dc7ab0a0452b787c" },
			{ "3fa9ca001d06eb7fe5ea64e6ebd322b106d4c5d56769c513e8e4965f9aa8cd7c",
					"85acd66e8c837cac20f2be8ee00932c83d70501252509ff5d25c18c3beec6e98" },
			{ "23ab2a9eccc0bb569c869b821518160265e5cdc181d7a4d9b897e2f04023262e",
					"42c1370ea808bc5ed120a0d153773617362ad4efb1a259e3cb30740e734cd288" },
			{ "6e5e668dcc63c175637b2fafa62f1fb9903a614807387aed5215ceb1006148a8",
					"53077b8f141d9dfc5c922c94cb8dff517dd4ed5ee34071f02e9090658b792974" },
			{ "929047c28177dc063e3399b7987446d29878d5f600aba9636f866478675e41ae",
					"d3690593060d0dcb4f1acd7f2a925d2af8322a2ced02d94e87968e5bb1e44944" },
			{ "929047c28177dc063e3399b7987446d29878d5f600aba9636f866478675e41ae",
					"645e7eb32d145b8e0fe4643203a46e6aebab6520eedc773f96dbb776c3b4367e" },
			{ "90d991014fd3979c2cc2b24b5244de496f76468d4bac03e9fb32fba383e91e6c",
					"71a3c4f0687204b0c3facc41038072e61599994e43e8f1df6ff1241c690e486a" },
			{ "fc6377dd4b2dab43b2d271f1b166c95be244855097454428a1eef611e3a0202a",
					"3c7c4419a05d062369b6b1fa8a4d78962fb139b29806856f43bd46c8c864ba4b" },
			{ "fc6377dd4b2dab43b2d271f1b166c95be244855097454428a1eef611e3a0202a",
					"0e7ba853d3158de37f97c95bf9241cea27837f1dd27cf88b353e613b677ae24c" },
			{ "900cdd6bc5b4eec7b4c8217552d1a29eef98b6f6f48d00e5e856b259fdc0c795",
					"fc66ff48b224970d1a935df847543d83410ec0400a94796e399e9f09d6699028" },
			{ "f9e26a8a0b8814be23f7e639c864599dcf0c0a8527b391d92b318efabee8861b",
					"ba90261fc427f96bf9b18b87973543b772e2e459a71de22a235964a4e9beeec0" },
			{ "1adfcfcbf92529f420d21f756c10250be38f2b84940f4cd10c2a602ae74707bc",
					"9d1a25e53c156e088e1a3f36308bbc102aff45c549547861e983d68b6e1e02a6" },
			{ "65863f2d3dc2ac0aca19bb91cbe47ef077778a03702b929064a70702cad70819",
					"f770093743ddd4f22303c41564b12554b6a6bf058cce9cab9451f5f497583802" },
			{ "150d9b05bfe45b43f4e9251651749e09ed4cc5048531cba4b7a5eac8e7a1d1af",
					"26534941dd7e71208c39f9c4dd4bb8ac87f1dd7a40d0b92e9be0efe039815fb7" },
			{ "f5de56dba8e3fbde768eaac9e879c0fc75dfde9a5903d38d57330d0f2ba6f84e",
					"a377545644b21fdb9d491f9b3ee1654552b16786cdfbd3abf6486558dda022c7" },
			{ "7d35f113a59bff07864719018e92ab37e0054d4db8a5c49d929b93acef20d939",
					"189a9b23f44a4cb83c3a7674748a96e391f95b25d67fcd39546beb4523390fc4" },
			{ "6740e3883c3777c458cbecf4289bc5a091bb7e14a2988effba2baf267d8f5b3d",
					"2a66be163453c5f53832e4e8c91d7cc4b328c51ca75ed1aa44c1b912cf9483b0" },
	};

	/** Chunks of 1, 4, 64 and 65,536 bytes, and the whole body in one array. */
	private static final int[] SHIFTS = { 0, 2, 6, 16, -1 };

	@Test
	void everyBodyHashesAsBeforeWhateverItsChunks() throws IOException {
		List<byte[]> bodies = new ArrayList<>();
		List<String> ignoreFields = new ArrayList<>();
		for (String[] row : texts()) {
			bodies.add(row[0].getBytes(StandardCharsets.UTF_8));
			ignoreFields.add(row[1]);
		}
		for (byte[] body : binaries()) {
			bodies.add(body);
			ignoreFields.add("");
		}
		assertThat(bodies).hasSize(RECORDED.length);
		for (int i = 0; i < bodies.size(); i++) {
			for (int shift : SHIFTS) {
				ByteChunks chunks = chunks(bodies.get(i), shift);
				String[] pointers = ignoreFields.get(i).isEmpty() ? new String[0] : ignoreFields.get(i).split(",");
				assertThat(RequestFingerprint.of("POST", "/v1/x", "b=2&a=1",
						CanonicalBody.json(chunks, CanonicalBody.pointers(pointers))))
					.as("JSON fingerprint of body %d in chunks of 2^%d", i, shift)
					.isEqualTo(RECORDED[i][0]);
				assertThat(RequestFingerprint.of("POST", "/v1/x", null, CanonicalBody.bytes(chunks)))
					.as("byte fingerprint of body %d in chunks of 2^%d", i, shift)
					.isEqualTo(RECORDED[i][1]);
			}
		}
	}

	private static ByteChunks chunks(byte[] body, int shift) throws IOException {
		if (shift < 0) {
			return ByteChunks.of(body);
		}
		return ByteChunks.read(new ByteArrayInputStream(body), body.length, shift);
	}

	private static List<String[]> texts() {
		List<String[]> rows = new ArrayList<>();
		String[][] base = {
			{"{\"a\":1,\"b\":[true,false,null]}", ""},
			{"{\"b\":[true,false,null],\"a\":1}", ""},
			{"  {\"a\" : 1.0 , \"b\":[ true , false , null ] }\n", ""},
			{"[1, 1.0, 1e0, 10e-1, 0.1e1, 100E-2]", ""},
			{"[-0, 0.0, -0.0, 0e10, 1e999999, 1e-999999, 123456789012345678901234567890]", ""},
			{"[1e2147483647, 0.1e2147483647999, 100e2147483647, 1e-2147483648]", ""},
			{"{\"s\":\"\\u00e9\\u20ac\\ud83d\\ude00 \\n\\t\\\"\\\\\\/\"}", ""},
			{"{\"s\":\"\u00e9\u20ac\uD83D\uDE00\",\"\u00e9\":\"x\"}", ""},
			{"{\"lone\":\"\\ud800\",\"low\":\"\\udc00x\"}", ""},
			{"{\"a\":{\"b\":{\"c\":[1,{\"d\":\"e\"}]}},\"z\":[]}", ""},
			{"{\"model\":\"m\",\"metadata\":{\"request_id\":\"r-1\",\"timestamp\":3},\"n\":2}",
					"/metadata/request_id,/metadata/timestamp"},
			{"{\"model\":\"m\",\"messages\":[{\"x\":1},{\"x\":2},{\"x\":3}]}", "/messages/1,/model"},
			{"{\"a/b\":1,\"m~n\":2,\"c\":3}", "/a~1b,/m~0n"},
			{"{\"a\":1,\"a\":2}", ""},
			{"{\"a\":1", ""},
			{"{\"a\":1} trailing", ""},
			{"not json at all", ""},
			{"", ""},
			{"   ", ""},
			{"\"just a string\"", ""},
			{"42", ""},
			{"[01]", ""},
			{"{\"a\":NaN}", ""},
			{"\uFEFF{\"bom\":true}", ""},
		};
		for (String[] row : base) {
			rows.add(row);
		}
		rows.add(new String[] { large(3000), "" });
		rows.add(new String[] { large(20000), "/0/t,/5/i" });
		rows.add(new String[] { "{\"content\":\"" + "\u00e9a\u20ac".repeat(70000) + "\"}", "" });
		return rows;
	}

	/** Bytes that are not UTF-8 text: other encodings, invalid sequences. */
	private static List<byte[]> binaries() {
		List<byte[]> rows = new ArrayList<>();
		rows.add("{\"utf16\":[1,2.0]}".getBytes(StandardCharsets.UTF_16BE));
		rows.add("{\"utf16\":[1,2.0]}".getBytes(StandardCharsets.UTF_16LE));
		rows.add("{\"utf16\":\"\u00e9\"}".getBytes(StandardCharsets.UTF_16));
		rows.add("{\"utf32\":[1e0]}".getBytes(Charset.forName("UTF-32BE")));
		rows.add("{\"utf32\":[1e0]}".getBytes(Charset.forName("UTF-32LE")));
		rows.add(new byte[] { '{', '"', 'a', '"', ':', '"', (byte) 0xC0, (byte) 0x80, '"', '}' });
		rows.add(new byte[] { '[', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', ']' });
		rows.add(new byte[] { '[', '"', (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80, '"', ']' });
		rows.add(new byte[] { (byte) 0xFF, (byte) 0xFE, 0, 0 });
		// U+10FFFF, noncharacters and U+D7FF; overlong forms; an overlong and a five-byte sequence.
		rows.add(HexFormat.of().parseHex("5b22f48fbfbf78efbfbfed9fbf225d"));
		rows.add(HexFormat.of().parseHex("5b22e08080222c22c1bf225d"));
		rows.add(HexFormat.of().parseHex("5b22f08fbfbf222c22f888808080225d"));
		rows.add(new byte[] { '[', '"', 'a', (byte) 0xC3, '"', ']' });
		return rows;
	}

	private static String large(int elements) {
		StringBuilder json = new StringBuilder("[");
		for (int i = 0; i < elements; i++) {
			json.append(i == 0 ? "" : ",").append("{\"t\":\"text ").append(i).append(" \u00e9\\u00e9\",\"i\":")
				.append(i)
				.append(",\"n\":").append(i).append(".5e1,\"b\":").append(i % 2 == 0).append('}');
		}
		return json.append(']').toString();
	}

}
