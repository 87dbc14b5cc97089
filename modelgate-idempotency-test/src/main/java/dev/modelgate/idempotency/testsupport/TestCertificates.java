package dev.modelgate.idempotency.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A certificate authority of its own and a server certificate it signed (by default for
 * {@code 127.0.0.1} and {@code localhost}), as PEM files, made with the {@code openssl} command
 * (OpenSSL 1.1.1 or later on the {@code PATH}). A client that trusts {@link #caCertificate()} can
 * verify the server's certificate and its host name; one that does not is refused.
 *
 * @param caCertificate the authority's certificate, for a client's trust store
 * @param certificate the server's certificate
 * @param privateKey the server's private key
 */
public record TestCertificates(Path caCertificate, Path certificate, Path privateKey) {

	/**
	 * Makes a new authority and a server certificate for {@code 127.0.0.1} and {@code localhost},
	 * valid for a day.
	 * @param directory where to write them (it must exist)
	 * @return the files written
	 */
	public static TestCertificates create(Path directory) {
		return create(directory, "IP:127.0.0.1, DNS:localhost");
	}

	/**
	 * Makes a new authority and a server certificate for the given names, valid for a day.
	 * @param directory where to write them (it must exist)
	 * @param subjectAltName the names the certificate is for, as OpenSSL writes them
	 * ({@code DNS:db.example.com, IP:10.0.0.1})
	 * @return the files written
	 */
	public static TestCertificates create(Path directory, String subjectAltName) {
		Path caKey = directory.resolve("ca.key");
		Path ca = directory.resolve("ca.crt");
		Path key = directory.resolve("server.key");
		Path request = directory.resolve("server.csr");
		Path certificate = directory.resolve("server.crt");
		Path extensions = directory.resolve("server.ext");
		write(extensions, """
				subjectAltName = %s
				basicConstraints = CA:FALSE
				keyUsage = digitalSignature, keyEncipherment
				extendedKeyUsage = serverAuth
				""".formatted(subjectAltName));
		openssl(directory, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
				"-keyout", caKey.toString(), "-out", ca.toString(), "-days", "1", "-subj", "/CN=ModelGate test CA");
		openssl(directory, "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
				"-keyout", key.toString(), "-out", request.toString(), "-subj", "/CN=localhost");
		openssl(directory, "x509", "-req", "-in", request.toString(), "-CA", ca.toString(), "-CAkey", caKey.toString(),
				"-CAcreateserial", "-days", "1", "-extfile", extensions.toString(), "-out", certificate.toString());
		return new TestCertificates(ca, certificate, key);
	}

	private static void openssl(Path directory, String... arguments) {
		List<String> command = new ArrayList<>(List.of("openssl"));
		command.addAll(List.of(arguments));
		try {
			Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
				throw new IllegalStateException("openssl " + String.join(" ", arguments) + " failed:\n" + output);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("These tests need the openssl command on the PATH (apt-get install openssl)",
					ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running openssl", ex);
		}
	}

	private static void write(Path file, String content) {
		try {
			Files.writeString(file, content);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
