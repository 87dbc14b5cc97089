package dev.modelgate.sample.gateway;

/**
 * {@link RouteKeyLifetimeTests} on the memory store (the sample's default).
 */
class MemoryRouteKeyLifetimeTests extends RouteKeyLifetimeTests {

}
