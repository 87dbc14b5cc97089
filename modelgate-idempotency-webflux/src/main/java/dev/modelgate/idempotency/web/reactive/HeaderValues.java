package dev.modelgate.idempotency.web.reactive;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;

import org.springframework.http.HttpHeaders;

/**
 * Every value of one request header, as received (a repeated header gives several values, and a
 * value is never split at its commas), on both Spring Framework lines this jar runs on. Framework 7
 * has {@code HttpHeaders.get(String)}; on 6.2 {@code HttpHeaders} is a {@code MultiValueMap} and the
 * same call is {@code Map.get(Object)}, another method to the JVM: code compiled against 7 would fail
 * there with {@code NoSuchMethodError}. {@code getValuesAsList} exists on both but splits a quoted
 * {@code "a,b"} key in two, so the method is found once, here.
 */
final class HeaderValues {

	private static final MethodHandle GET = find();

	private HeaderValues() {
	}

	/** {@return the header's values, empty when the request has no such header} */
	@SuppressWarnings("unchecked")
	static List<String> all(HttpHeaders headers, String name) {
		try {
			List<String> values = (List<String>) GET.invokeExact(headers, name);
			return (values != null) ? values : List.of();
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static MethodHandle find() {
		MethodHandles.Lookup lookup = MethodHandles.publicLookup();
		MethodType asCalled = MethodType.methodType(List.class, HttpHeaders.class, String.class);
		try {
			return lookup.findVirtual(HttpHeaders.class, "get", MethodType.methodType(List.class, String.class))
				.asType(asCalled);
		}
		catch (NoSuchMethodException ex) {
			try {
				return lookup.findVirtual(HttpHeaders.class, "get", MethodType.methodType(Object.class, Object.class))
					.asType(asCalled);
			}
			catch (ReflectiveOperationException notThere) {
				throw new IllegalStateException("HttpHeaders has neither get(String) nor get(Object)", notThere);
			}
		}
		catch (IllegalAccessException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
