package dev.modelgate.reliability.support;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The last line of defence against leftovers: one JVM shutdown hook that kills every process the
 * suite started and then deletes every temporary directory it made, for runs that end before the
 * tests' own clean-up does (a failure in set-up, an interrupted build).
 */
final class Reaper {

	private static final Set<ManagedProcess> processes = ConcurrentHashMap.newKeySet();

	private static final Set<Path> directories = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(Reaper::reap, "reliability-reaper"));
	}

	private Reaper() {
	}

	static void track(ManagedProcess process) {
		processes.add(process);
	}

	static void forget(ManagedProcess process) {
		processes.remove(process);
	}

	static void track(Path directory) {
		directories.add(directory);
	}

	static void forget(Path directory) {
		directories.remove(directory);
	}

	private static void reap() {
		processes.forEach(ManagedProcess::kill);
		directories.forEach(WorkDirectories::delete);
	}

}
