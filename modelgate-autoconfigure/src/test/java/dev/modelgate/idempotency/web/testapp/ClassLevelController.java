package dev.modelgate.idempotency.web.testapp;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.idempotency.Idempotent;

/** Every handler of this controller is idempotent through the class-level annotation. */
@RestController
@Idempotent
class ClassLevelController {

	private final Invocations invocations;

	ClassLevelController(Invocations invocations) {
		this.invocations = invocations;
	}

	@PostMapping("/class-level")
	String classLevel() {
		return "run " + this.invocations.increment("class-level");
	}

}
