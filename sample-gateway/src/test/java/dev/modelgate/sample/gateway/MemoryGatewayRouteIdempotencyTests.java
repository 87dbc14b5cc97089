package dev.modelgate.sample.gateway;

/**
 * {@link GatewayRouteIdempotencyTests} on the memory store (the sample's default).
 */
class MemoryGatewayRouteIdempotencyTests extends GatewayRouteIdempotencyTests {

}
