package dev.modelgate.sample;

/**
 * {@link OpenAiJavaClientStreamIdempotencyTests} on the sample's default store, in memory.
 */
class MemoryOpenAiJavaClientStreamIdempotencyTests extends OpenAiJavaClientStreamIdempotencyTests {

}
