package dev.modelgate.sample.agent;

/**
 * A mail the agent sends.
 *
 * @param to the recipient
 * @param subject the subject line
 * @param text the body
 */
public record MailMessage(String to, String subject, String text) {
}
