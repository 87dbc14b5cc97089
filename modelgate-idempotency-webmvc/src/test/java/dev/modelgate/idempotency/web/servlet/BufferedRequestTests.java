package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import jakarta.servlet.ServletInputStream;

import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.util.FileCopyUtils;
import org.springframework.util.StreamUtils;

import dev.modelgate.idempotency.core.internal.ByteChunks;

import static org.assertj.core.api.Assertions.assertThat;

class BufferedRequestTests {

	@Test
	void bodyOfManyChunksIsReadAgainByStreamAndReader() throws IOException {
		byte[] body = text(5 * ByteChunks.CHUNK_SIZE / 2);
		BufferedRequest buffered = BufferedRequest.read(request("text/plain", body), 1 << 20);
		assertThat(buffered.getContentLengthLong()).isEqualTo(body.length);
		assertThat(StreamUtils.copyToByteArray(buffered.getInputStream())).isEqualTo(body);
		assertThat(StreamUtils.copyToByteArray(buffered.getInputStream())).isEqualTo(body);
		assertThat(FileCopyUtils.copyToString(buffered.getReader()))
			.isEqualTo(new String(body, StandardCharsets.UTF_8));
	}

	@Test
	void streamIsFinishedOnlyOnceReadToTheEnd() throws IOException {
		BufferedRequest buffered = BufferedRequest.read(request("text/plain", text(3)), 10);
		ServletInputStream in = buffered.getInputStream();
		assertThat(in.isFinished()).isFalse();
		in.readAllBytes();
		assertThat(in.isFinished()).isTrue();
	}

	@Test
	void formOfManyChunksGivesItsParameters() throws IOException {
		String value = "x".repeat(2 * ByteChunks.CHUNK_SIZE);
		byte[] form = ("a=1&long=" + value + "&b=J%C3%BCrgen").getBytes(StandardCharsets.ISO_8859_1);
		MockHttpServletRequest request = request("application/x-www-form-urlencoded", form);
		request.setQueryString("q=0");
		BufferedRequest buffered = BufferedRequest.read(request, 1 << 20);
		assertThat(buffered.getParameter("long")).isEqualTo(value);
		assertThat(buffered.getParameter("b")).isEqualTo("J\u00fcrgen");
		assertThat(buffered.getParameterMap()).containsOnlyKeys("q", "a", "long", "b");
	}

	@Test
	void bodyOfExactlyTheCapIsReadAndOneByteMoreIsNot() throws IOException {
		int cap = ByteChunks.CHUNK_SIZE + 7;
		assertThat(BufferedRequest.read(request("text/plain", text(cap)), cap)).isNotNull();
		assertThat(BufferedRequest.read(request("text/plain", text(cap + 1)), cap)).isNull();
	}

	@Test
	void bodyLongerThanDeclaredIsReadOnAndCapped() throws IOException {
		byte[] body = text(ByteChunks.CHUNK_SIZE + 100);
		BufferedRequest buffered = BufferedRequest.read(declaringTen(body), 1 << 20);
		assertThat(StreamUtils.copyToByteArray(buffered.getInputStream())).isEqualTo(body);
		assertThat(BufferedRequest.read(declaringTen(body), ByteChunks.CHUNK_SIZE)).isNull();
	}

	/** A request that declares 10 bytes and sends more, as a container would not let through. */
	private static MockHttpServletRequest declaringTen(byte[] body) {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/") {
			@Override
			public long getContentLengthLong() {
				return 10;
			}
		};
		request.setContent(body);
		return request;
	}

	private static MockHttpServletRequest request(String contentType, byte[] body) {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/");
		request.setContentType(contentType);
		request.setContent(body);
		return request;
	}

	private static byte[] text(int length) {
		byte[] bytes = new byte[length];
		Random random = new Random(length);
		for (int i = 0; i < length; i++) {
			bytes[i] = (byte) ('a' + random.nextInt(26));
		}
		return bytes;
	}

}
