package dev.modelgate.consumers.mcp;

import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

@SpringBootApplication
public class SpringAiMcpServerApplication {

	public static void main(String[] args) {
		SpringApplication.run(SpringAiMcpServerApplication.class, args);
	}

	/** The tools Spring AI's MCP server publishes. */
	@Bean
	ToolCallbackProvider mailToolCallbacks(MailTools tools) {
		return MethodToolCallbackProvider.builder().toolObjects(tools).build();
	}

}
