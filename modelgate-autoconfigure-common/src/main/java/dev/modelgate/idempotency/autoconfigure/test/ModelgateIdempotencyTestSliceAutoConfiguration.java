package dev.modelgate.idempotency.autoconfigure.test;

import org.springframework.boot.autoconfigure.AutoConfiguration;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyAutoConfiguration;

/**
 * Marks an application context as a test slice, where {@code modelgate.idempotency.store=auto} (or
 * unset) falls back to the in-memory store when it finds neither Redis nor a DataSource, instead of
 * failing start-up.
 *
 * <p>Listed, with {@link ModelgateIdempotencyAutoConfiguration}, in the imports of
 * {@code @AutoConfigureWebMvc} (so in every {@code @WebMvcTest}) and never among the application's
 * auto-configurations: an application, and a {@code @SpringBootTest}, get the in-memory store only
 * when they ask for it by name. It declares no bean: being registered ahead of the starter's
 * auto-configuration, where the store conditions look for it, is its whole job. A store bean, or a
 * store named in {@code modelgate.idempotency.store}, still wins in a slice as it does in the
 * application.
 */
@AutoConfiguration(before = ModelgateIdempotencyAutoConfiguration.class)
public final class ModelgateIdempotencyTestSliceAutoConfiguration {

}
