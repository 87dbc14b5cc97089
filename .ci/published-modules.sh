# The published modules, for .ci/reproducible.sh and .ci/release-rehearsal.sh (sourced by both): the
# Maven module paths of every artifact that goes to Maven Central. The root pom, a published parent,
# is selected by its artifact id where a path is needed.
published=(
  build-parent
  modelgate-idempotency-bom
  modelgate-idempotency-core
  modelgate-idempotency-redis
  modelgate-idempotency-jdbc
  modelgate-idempotency-http
  modelgate-idempotency-webmvc
  modelgate-idempotency-webflux
  modelgate-idempotency-gateway
  modelgate-idempotency-test
  modelgate-idempotency-spring
  modelgate-idempotency-messaging
  modelgate-idempotency-modulith
  modelgate-idempotency-spring-ai
  modelgate-autoconfigure-common
  modelgate-autoconfigure
  modelgate-spring-boot-starter
  spring-boot3
  spring-boot3/modelgate-spring-boot3-autoconfigure
  spring-boot3/modelgate-spring-boot3-starter
)
