package dev.modelgate.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.modelgate.reliability.support.CountingUpstream;
import dev.modelgate.reliability.support.DuplicateStorm;
import dev.modelgate.reliability.support.Gateway;
import dev.modelgate.reliability.support.Report;
import dev.modelgate.reliability.support.SampleApp;
import dev.modelgate.reliability.support.Settings;
import dev.modelgate.reliability.support.StoreServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 1, the duplicate storm: {@code reliability.instances} gateways share one store and one
 * counting upstream; every one of {@code reliability.keys} keys is sent {@code reliability.duplicates}
 * times at once, spread over the gateways. The upstream must be called exactly once per key, and
 * every answer for a key must be the same bytes or a 409 in-progress error. Subclasses say which
 * store.
 */
@Tag("process")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractDuplicateStormTests {

	/** Keys whose duplicates are in flight together: keys × duplicates concurrent requests. */
	private static final int KEYS_IN_FLIGHT = 8;

	/** Long enough for duplicates to overlap the execution, short enough for a quick run. */
	private static final Duration UPSTREAM_LATENCY = Duration.ofMillis(15);

	private CountingUpstream upstream;

	private StoreServer store;

	private List<SampleApp> apps = List.of();

	/** Starts the store the gateways will share. */
	protected abstract StoreServer startStore(String scenario);

	/** The scenario's name in logs and results. */
	protected abstract String scenario();

	/** Anything about the store after the storm worth a line in the report. */
	protected String storeDetails(StoreServer store) {
		return "";
	}

	@BeforeAll
	void startStoreUpstreamAndGateways() {
		this.upstream = CountingUpstream.start();
		this.upstream.delayAnswers(UPSTREAM_LATENCY);
		this.store = startStore(scenario());
		List<SampleApp.Builder> builders = new ArrayList<>();
		for (int i = 0; i < Settings.instances(); i++) {
			builders.add(SampleApp.builder(scenario(), "gateway-" + i).store(this.store).upstream(this.upstream));
		}
		this.apps = SampleApp.startAll(builders);
		new Gateway().warmUp(this.apps);
	}

	@AfterAll
	void stopEverything() {
		this.apps.forEach(SampleApp::close);
		if (this.store != null) {
			this.store.close();
		}
		if (this.upstream != null) {
			this.upstream.close();
		}
	}

	@Test
	void everyKeyRunsExactlyOnceAcrossInstances() {
		DuplicateStorm.Result result = new DuplicateStorm(this.apps, this.upstream, Settings.keys(),
				Settings.duplicates(), KEYS_IN_FLIGHT).run();

		Report.write(scenario(), result.summary(this.store.name()) + "\n" + storeDetails(this.store));
		assertThat(result.violations()).isEmpty();
		assertThat(result.upstreamCalls()).isEqualTo(Settings.keys());
		assertThat(result.count(200, false)).isEqualTo(Settings.keys());
	}

}
