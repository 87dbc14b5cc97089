package dev.modelgate.reliability;

import dev.modelgate.reliability.support.RedisCluster;
import dev.modelgate.reliability.support.StoreServer;

/**
 * Scenario 4, second half: the duplicate storm with the gateways on a local three-master Redis
 * Cluster ({@code spring.data.redis.cluster.nodes}).
 */
class RedisClusterDuplicateStormTests extends AbstractDuplicateStormTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return RedisCluster.start(scenario);
	}

	@Override
	protected String storeDetails(StoreServer store) {
		return "Keys per master after the storm: " + ((RedisCluster) store).keysPerNode() + ".";
	}

	@Override
	protected String scenario() {
		return "duplicate-storm-redis-cluster";
	}

}
