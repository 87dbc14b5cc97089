package dev.modelgate.idempotency.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The head and the events of a stream in an {@link InMemoryIdempotencyStore}, appended in place
 * under the store's lock.
 */
final class MemoryStream {

	final byte[] head;

	final List<byte[]> events = new ArrayList<>();

	/** The head's and the events' bytes. */
	long bytes;

	MemoryStream(byte[] head) {
		this.head = head.clone();
		this.bytes = head.length;
	}

	/** Appends copies of {@code events}, which hold {@code size} bytes. */
	void append(List<byte[]> events, long size) {
		for (byte[] event : events) {
			this.events.add(event.clone());
		}
		this.bytes += size;
	}

}
