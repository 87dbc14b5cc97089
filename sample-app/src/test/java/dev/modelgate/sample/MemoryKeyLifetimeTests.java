package dev.modelgate.sample;

/**
 * {@link KeyLifetimeTests} on the default profile's memory store.
 */
class MemoryKeyLifetimeTests extends KeyLifetimeTests {

}
