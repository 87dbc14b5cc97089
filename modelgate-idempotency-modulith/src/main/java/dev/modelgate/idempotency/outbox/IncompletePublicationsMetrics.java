package dev.modelgate.idempotency.outbox;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.modulith.events.core.EventPublicationRepository;
import org.springframework.modulith.events.core.TargetEventPublication;

/**
 * Gauges of the outbox's backlog, read from Spring Modulith's event publication registry when the
 * registry is scraped: {@value #COUNT}, the publications not completed yet (each listener of an event
 * is one publication), and {@value #OLDEST_AGE}, how long ago the oldest of them was published (0 when
 * there is none). A backlog that grows, or an age well past the time a listener takes, means a listener
 * that keeps failing or a publication that is waiting for a resubmission.
 *
 * <p>Each scrape reads the incomplete publications (the only query Spring Modulith 1.4 and 2.0 both
 * have for them); the backlog of a healthy outbox is small.
 */
public class IncompletePublicationsMetrics implements MeterBinder {

	/** The number of incomplete publications. */
	public static final String COUNT = "modelgate.outbox.publications.incomplete";

	/** The age of the oldest incomplete publication. */
	public static final String OLDEST_AGE = "modelgate.outbox.publications.oldest.age";

	private final EventPublicationRepository repository;

	private final Clock clock;

	/** @param repository the registry's repository */
	public IncompletePublicationsMetrics(EventPublicationRepository repository) {
		this(repository, Clock.systemUTC());
	}

	IncompletePublicationsMetrics(EventPublicationRepository repository, Clock clock) {
		this.repository = repository;
		this.clock = clock;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder(COUNT, this, (metrics) -> metrics.incomplete().size())
			.description("Event publications not completed yet")
			.baseUnit("publications")
			.register(registry);
		TimeGauge.builder(OLDEST_AGE, this, TimeUnit.MILLISECONDS, IncompletePublicationsMetrics::oldestAgeMillis)
			.description("Age of the oldest event publication not completed yet")
			.register(registry);
	}

	private List<TargetEventPublication> incomplete() {
		return this.repository.findIncompletePublications();
	}

	private double oldestAgeMillis() {
		Instant now = this.clock.instant();
		return incomplete().stream()
			.map(TargetEventPublication::getPublicationDate)
			.min(Instant::compareTo)
			.map((oldest) -> (double) Math.max(0, Duration.between(oldest, now).toMillis()))
			.orElse(0.0);
	}

}
