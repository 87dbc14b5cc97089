package dev.modelgate.consumers.securityflux;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;

/**
 * The starter in a WebFlux application behind Spring Security: HTTP Basic, two users, every exchange
 * authenticated.
 */
@SpringBootApplication
public class SecurityFluxApplication {

	public static void main(String[] args) {
		SpringApplication.run(SecurityFluxApplication.class, args);
	}

	@Bean
	SecurityWebFilterChain securityWebFilterChain(ServerHttpSecurity http) {
		return http.authorizeExchange((exchanges) -> exchanges.anyExchange().authenticated())
			.httpBasic(Customizer.withDefaults())
			.csrf((csrf) -> csrf.disable())
			.build();
	}

	@Bean
	MapReactiveUserDetailsService users() {
		return new MapReactiveUserDetailsService(
				User.withUsername("alice").password("{noop}alice-secret").roles("USER").build(),
				User.withUsername("bob").password("{noop}bob-secret").roles("USER").build());
	}

}
