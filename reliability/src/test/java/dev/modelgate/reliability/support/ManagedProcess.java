package dev.modelgate.reliability.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A server process the suite started (a gateway JVM, a Redis, a PostgreSQL), with its output in a
 * log file. Every one is also known to the {@link Reaper}, so that none outlives the test run even
 * when a test fails half-way or the run is interrupted.
 */
public final class ManagedProcess implements AutoCloseable {

	private final String name;

	private final Process process;

	private final Path log;

	private ManagedProcess(String name, Process process, Path log) {
		this.name = name;
		this.process = process;
		this.log = log;
	}

	/**
	 * Starts {@code command}, its standard output and error written to {@code log} (replacing the file
	 * a previous run left).
	 * @param name what to call the process in messages
	 * @param environment variables added to the suite's own environment
	 */
	public static ManagedProcess start(String name, List<String> command, Map<String, String> environment,
			Path log) {
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(log.toFile());
		builder.environment().putAll(environment);
		try {
			Files.createDirectories(log.getParent());
			ManagedProcess started = new ManagedProcess(name, builder.start(), log);
			Reaper.track(started);
			return started;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start " + name + " (" + String.join(" ", command) + "): "
					+ ex.getMessage(), ex);
		}
	}

	/**
	 * Runs a short command to its end and answers its output.
	 * @throws IllegalStateException when it fails or does not finish within {@code timeout}
	 */
	public static String run(Duration timeout, String... command) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				process.destroyForcibly();
				throw new IllegalStateException("'" + String.join(" ", command) + "' did not finish within " + timeout);
			}
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (process.exitValue() != 0) {
				throw new IllegalStateException(
						"'" + String.join(" ", command) + "' failed with exit code " + process.exitValue() + ":\n" + output);
			}
			return output;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run '" + String.join(" ", command) + "': " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + String.join(" ", command), ex);
		}
	}

	public long pid() {
		return this.process.pid();
	}

	public boolean isAlive() {
		return this.process.isAlive();
	}

	/** Everything the process wrote so far. */
	public String log() {
		try {
			return Files.readString(this.log, StandardCharsets.ISO_8859_1);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The last lines of the log, for failure messages. */
	public String logTail() {
		List<String> lines = log().lines().toList();
		return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
	}

	/** Waits until the log contains {@code text}; fails early if the process dies. */
	public void awaitLog(String text, Duration timeout) {
		awaitCondition(() -> log().contains(text), "'" + text + "' in its log", timeout);
	}

	/**
	 * Polls {@code condition} until it holds; fails with the log's tail when the process exits first or
	 * time runs out.
	 */
	public void awaitCondition(BooleanSupplier condition, String what, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!condition.getAsBoolean()) {
			if (!this.process.isAlive()) {
				throw new IllegalStateException(this.name + " exited with code " + this.process.exitValue()
						+ " before " + what + ". Its log (" + this.log + ") ends with:\n" + logTail());
			}
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("No " + what + " from " + this.name + " within " + timeout
						+ ". Its log (" + this.log + ") ends with:\n" + logTail());
			}
			Sleep.millis(50);
		}
	}

	/** Sends a signal, such as {@code QUIT}, to the process. */
	public void signal(String name) {
		run(Duration.ofSeconds(10), "kill", "-" + name, Long.toString(pid()));
	}

	/** Waits until the process has exited; fails with its log's tail if it does not in time. */
	public void awaitExit(Duration timeout) {
		try {
			if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException(this.name + " did not exit within " + timeout + ". Its log (" + this.log
						+ ") ends with:\n" + logTail());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
		Reaper.forget(this);
	}

	/** SIGKILL: the process gets no chance to clean up, as in a crash or an OOM kill. */
	public void kill() {
		this.process.destroyForcibly();
		waitForExit();
		Reaper.forget(this);
	}

	/**
	 * SIGSTOP: every thread stops at once, heartbeats included, exactly like a long stop-the-world
	 * pause; sockets stay open and the kernel keeps accepting bytes for it.
	 */
	public void suspend() {
		signal("STOP");
	}

	/** SIGCONT, after {@link #suspend()}. */
	public void resume() {
		signal("CONT");
	}

	private void waitForExit() {
		try {
			this.process.waitFor(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		if (this.process.isAlive()) {
			// A stopped process ignores SIGTERM until continued; SIGKILL works either way.
			kill();
		}
		Reaper.forget(this);
	}

	@Override
	public String toString() {
		return this.name + " (pid " + pid() + ")";
	}

}
