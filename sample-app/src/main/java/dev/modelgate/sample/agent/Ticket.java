package dev.modelgate.sample.agent;

/**
 * A ticket the agent opened.
 *
 * @param id the desk's id for it
 * @param title its title
 */
public record Ticket(String id, String title) {
}
