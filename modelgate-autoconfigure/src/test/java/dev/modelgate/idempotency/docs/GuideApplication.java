package dev.modelgate.idempotency.docs;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/** The application of docs/TESTING.md's examples: one keyed endpoint, {@link GuideOrderController}. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(GuideOrderController.class)
public class GuideApplication {

}
