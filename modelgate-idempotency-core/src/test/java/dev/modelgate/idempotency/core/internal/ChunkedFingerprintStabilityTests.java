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
 * Fingerprints of a corpus of bodies, recorded when JSON bodies took their RFC 8785 form (the byte
 * fingerprints are older, from commit 6d4108f): a body read in chunks of any size must hash exactly
 * as recorded, or a fleet would stop recognising the keys its other members stored.
 */
class ChunkedFingerprintStabilityTests {

	/** The JSON fingerprint (with query {@code b=2&a=1}), then the byte fingerprint, of each body in order. */
	private static final String[][] RECORDED = {
			{ "5b703af3cc87f912845a847e2fc14a9c136b19ee640f29491860159471b3f618",
					"bfb5fd96510e261af644a985a851c8fefff6e241ac6d598d5bfdfa0adfdc0bf0" },
			{ "5b703af3cc87f912845a847e2fc14a9c136b19ee640f29491860159471b3f618",
					"4ef959156798cbb8e112efbdb18392ea58b9ed2fa100de0a217a1b0f4e71a1d3" },
			{ "5b703af3cc87f912845a847e2fc14a9c136b19ee640f29491860159471b3f618",
					"35f48ffe1a83fd4bf83d3d9b14f02ae92e6d8c1b8e76d33feaee4d639cbf0ca4" },
			{ "1b413eec1ae0b2b8bfd325470ee2f5860fcfe2a8899d357f9b40a731d1c581d9",
					"4f3643c5d308cb3de723ff8b7a33da0f66e79c4571db7f3ae0c5835f9c8e4ff2" },
			{ "819db7f40b3ba5a8cc24e0f79ae0bcd5fbad0ef01c0e7468a94bc5ee65940d54",
					"90f52f21a8c5f93af110a61856be7c62bdb29de68599a32c8b12dc3fd8feaafe" },
			{ "b054fb0cd6889caed7d7f9ddb8e8bfb4117ac6e772bdc2699e8b2c1d0332ec36",
					"f133d77058c3eef80b743e08e21b830772b3f56a63ff38ff6bf90562e15934e5" },
			{ "c8e33738bb6ca0b2276465a5d4e55a2de370054f70b76a5e184fded8f492bc40",
					"58dca6c21fda201e7352f2d7b1c1a1dab452bca14d90caa965df913dd2200adc" },
			{ "69e8640a2d145c0e672e4388f042e10785c88da0a0abe2108f45b717113562ea",
					"47a586e2a12323d9bc3987c36730434a7799b75afbe4b4188181680c1a3fbbdb" },
			{ "653a1ea2ebaaf2621738f8e44905c19b0b80c2e98bf987f342b62df2b1c79204",
					"286d0f94c62d6b2c5d201c047afcc16e5be990858d5b10d4b702531f94e22981" },
			{ "f1707300ba5bd8646bedfbf880911fcfbf34a9a7a7bc8ddc383d5fbb8642893f",
					"d7d89803cf4aa14772b351f22ff65d90621551fdf374a2bb56f876d49c7ba70c" },
			{ "693be04053a7cfa2f9b405b7d89d6c8b751eafeeb68990b22f7933f4b61941b2",
					"e7d5656947f7d09105fd403dc74601e72ac597082f041d7e5192a008dff3298f" },
			{ "fa50517cd37facf44ca40417d7ed072837e3417911e14181cc0a8f455723d422",
					"b963f1e564c905389751b577d017ccf3170c61a7d5fe5873ce2a6f8b0e22ed67" },
			{ "d13c49b1a79dabf7055fd6f33d47863e3f0306f128918f95040dfa94cd53d638",
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
			{ "86eaf64f59010bfb7ada9cc67687d11080806f663440ab6159f410049de87b8e",
					"84d6bb68c10d5a0b7e99df56e181592a641e789a156163c6a9b9a54418d4ccdb" },
			{ "0939a005a1a130722344cf94715024c95371bf4f17a199ec5b485103a0d1d594",
					"41bee0dc9be127bab31a92f9b913aacee7a9288406074b097ec1d24383c26d1a" },
			{ "eef2cd2fb1dbc968327b2fe70a6a47de6c709d4676b92c36a74b0a53565a4ac0",
					"6b10d5c8f5f10be0d3d92b36401274941918850031fafcc8f91c3a774f85eac2" },
			{ "a55c85c2cbfb26c6018f4d6dd17c7494da889724631a15811986463c0276fd5d",
					"e9e73014df8c59ef330c114ebc28c610820a78000fe6599dec9702ee7b7f7ebf" },
			{ "959ae05d44e5bb29c34b3e379a23719370f68a876fe89d8901b40db3ef2af68a",
					"9b56b11f0234a5919d38df721bdc22be155a839ba2e3a5d7dc7ab0a0452b787c" },
			{ "7d10bc3aba3ab1bbec200db4628cf433729ed6e12dd47a96760a51355b214091",
					"85acd66e8c837cac20f2be8ee00932c83d70501252509ff5d25c18c3beec6e98" },
			{ "502ad160b7dc458d750f7cd7384a69cd83c67ed11222d183315feeb7272ccb2c",
					"42c1370ea808bc5ed120a0d153773617362ad4efb1a259e3cb30740e734cd288" },
			{ "5fda7becac09cee0d265838f2aece6cf6513b10c4054b7f9a7c726b9e2d01946",
					"53077b8f141d9dfc5c922c94cb8dff517dd4ed5ee34071f02e9090658b792974" },
			{ "8e4464359b28d9f2521230ee416e1fa8cd97b1a929d9250ca08af158168ac5c0",
					"d3690593060d0dcb4f1acd7f2a925d2af8322a2ced02d94e87968e5bb1e44944" },
			{ "3b205824f2ab87713b995d1295516d47c5d8cf7495db6f84d98df282966b5672",
					"645e7eb32d145b8e0fe4643203a46e6aebab6520eedc773f96dbb776c3b4367e" },
			{ "182defda541bf3fa6fdb874d8d9d9bc6efdbbabf30240d3427fa31e6744d97c6",
					"71a3c4f0687204b0c3facc41038072e61599994e43e8f1df6ff1241c690e486a" },
			{ "ef35745e2b5f14b18c572a35bd9bdff2b7646d2ff884edde4d48aeb092aaf4b5",
					"3c7c4419a05d062369b6b1fa8a4d78962fb139b29806856f43bd46c8c864ba4b" },
			{ "64fc5f314074d031727c603f8d8c557153d4a885a51a3c3ff59e50d4c0744165",
					"0e7ba853d3158de37f97c95bf9241cea27837f1dd27cf88b353e613b677ae24c" },
			{ "cd3d7ee7448c98b7cbdc715e4cba5aa94756daacf60a804f44e9435f03fd1928",
					"fc66ff48b224970d1a935df847543d83410ec0400a94796e399e9f09d6699028" },
			{ "f9e26a8a0b8814be23f7e639c864599dcf0c0a8527b391d92b318efabee8861b",
					"ba90261fc427f96bf9b18b87973543b772e2e459a71de22a235964a4e9beeec0" },
			{ "0775c2597a377673fed6b2b866f1b731052348d6d26de9341713cf3caca9ff6b",
					"9d1a25e53c156e088e1a3f36308bbc102aff45c549547861e983d68b6e1e02a6" },
			{ "65863f2d3dc2ac0aca19bb91cbe47ef077778a03702b929064a70702cad70819",
					"f770093743ddd4f22303c41564b12554b6a6bf058cce9cab9451f5f497583802" },
			{ "c2a3a3307d0b81971e1f48219eb9f9a52ab824bcc159c9232216ebc390713e77",
					"26534941dd7e71208c39f9c4dd4bb8ac87f1dd7a40d0b92e9be0efe039815fb7" },
			{ "a0ee9d5dcd973ca25c588725a21845ed05cd9f0c83c1ae95c43934697cd5e8a4",
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
