package dev.modelgate.idempotency.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.Conditional;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties.StoreType;

/**
 * Matches when {@code modelgate.idempotency.store} names the given store, or is {@code auto} (or
 * unset) and the store is one that {@code auto} may pick.
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Conditional(OnStoreTypeCondition.class)
@interface ConditionalOnStoreType {

	StoreType value();

}
