package dev.modelgate.consumers.outbox;

import java.time.Duration;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.modulith.events.IncompleteEventPublications;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Resubmits the publications that stayed incomplete for {@code consumer.resubmit-older-than} (a listener that
 * failed, or a process that died while its listener ran), every {@code consumer.resubmit-every}: what an
 * application does so that an outbox drains without a restart.
 */
@Component
@EnableScheduling
@ConditionalOnProperty("consumer.resubmit-every")
public class Resubmissions {

	private final IncompleteEventPublications publications;

	private final Duration olderThan;

	public Resubmissions(IncompleteEventPublications publications,
			@Value("${consumer.resubmit-older-than:1s}") Duration olderThan) {
		this.publications = publications;
		this.olderThan = olderThan;
	}

	@Scheduled(fixedDelayString = "${consumer.resubmit-every}")
	public void resubmit() {
		this.publications.resubmitIncompletePublicationsOlderThan(this.olderThan);
	}

}
