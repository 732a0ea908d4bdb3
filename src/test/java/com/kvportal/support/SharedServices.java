package com.kvportal.support;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * The other instances of a cluster test ({@link IntegrationTest} being the first): a {@link ServiceGroup} on the
 * test's own database that all its methods share, launched before the first test method and stopped after the last.
 * A test may stop one itself ({@code kill -9}, SIGTERM); none is launched again. Register it as a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final SharedServices others = new SharedServices("cluster-second", "cluster-third");
 * }</pre>
 */
public final class SharedServices implements BeforeEachCallback, AfterAllCallback {

    private final List<String> names;
    private final String[] arguments;
    private @Nullable ServiceGroup group;

    /** One process per name (its log's name), each with the default settings. */
    public SharedServices(String... names) {
        this(List.of(names), new String[0]);
    }

    private SharedServices(List<String> names, String[] arguments) {
        this.names = names;
        this.arguments = arguments;
    }

    /** The same processes, each launched with these command line settings. */
    public SharedServices withArguments(String... arguments) {
        return new SharedServices(names, arguments.clone());
    }

    /** The process of the {@code index}th name. */
    public ServiceProcess get(int index) {
        if (group == null) {
            throw new IllegalStateException("not launched: the processes start before each test method");
        }
        return group.get(index);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (group == null) {
            String databaseUrl = SpringExtension.getApplicationContext(context)
                    .getEnvironment()
                    .getRequiredProperty("DATABASE_URL");
            group = ServiceGroup.launch(databaseUrl, names, arguments);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (group != null) {
            group.close();
            group = null;
        }
    }
}
