package dev.modelgate.idempotency.web.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FollowerCountsTests {

	private final FollowerCounts followers = new FollowerCounts();

	@Test
	void joinsUpToTheLimitPerScopeAndAgainOnceOneLeft() {
		assertThat(this.followers.tryJoin("a", 2)).isTrue();
		assertThat(this.followers.tryJoin("a", 2)).isTrue();
		assertThat(this.followers.tryJoin("a", 2)).isFalse();
		assertThat(this.followers.tryJoin("b", 2)).isTrue();

		this.followers.leave("a");

		assertThat(this.followers.count("a")).isOne();
		assertThat(this.followers.tryJoin("a", 2)).isTrue();
	}

	@Test
	void scopeWithNoFollowerLeftIsForgotten() {
		this.followers.tryJoin("a", 1);
		this.followers.leave("a");
		this.followers.leave("a");

		assertThat(this.followers.count("a")).isZero();
		assertThat(this.followers.tryJoin("a", 1)).isTrue();
	}

	@Test
	void concurrentJoinsNeverPassTheLimit() throws Exception {
		int threads = 16;
		CountDownLatch start = new CountDownLatch(1);
		AtomicInteger joined = new AtomicInteger();
		List<Thread> all = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			Thread thread = new Thread(() -> {
				try {
					start.await();
				}
				catch (InterruptedException ex) {
					return;
				}
				for (int j = 0; j < 1000; j++) {
					if (this.followers.tryJoin("hot", 5)) {
						joined.incrementAndGet();
					}
				}
			});
			thread.start();
			all.add(thread);
		}
		start.countDown();
		for (Thread thread : all) {
			thread.join();
		}

		assertThat(joined).hasValue(5);
		assertThat(this.followers.count("hot")).isEqualTo(5);
	}

}
