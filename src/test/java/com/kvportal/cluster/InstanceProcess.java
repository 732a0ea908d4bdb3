package com.kvportal.cluster;

import com.kvportal.support.ServiceProcess;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The former cluster launcher, kept only so that cluster tests written against it still compile; it starts nothing
 * itself and hands every call to {@link ServiceProcess}, the one launcher. New tests use {@link
 * ServiceProcess#launch(String, String, Map, String...)} and {@link ServiceProcess#startReady} directly.
 *
 * @deprecated use {@link ServiceProcess}; to be removed once no test names this class
 */
@Deprecated(forRemoval = true)
public final class InstanceProcess implements AutoCloseable {

    private final ServiceProcess service;

    private InstanceProcess(ServiceProcess service) {
        this.service = service;
    }

    public static InstanceProcess start(String name, String databaseUrl, String... arguments) {
        return new InstanceProcess(ServiceProcess.launch(name, databaseUrl, arguments));
    }

    public static InstanceProcess start(
            String name, String databaseUrl, Map<String, String> environment, String... arguments) {
        return new InstanceProcess(ServiceProcess.launch(name, databaseUrl, environment, arguments));
    }

    public static List<InstanceProcess> startReady(String databaseUrl, String... names) {
        return ServiceProcess.startReady(databaseUrl, names).stream()
                .map(InstanceProcess::new)
                .toList();
    }

    public static void closeAll(@Nullable InstanceProcess... processes) {
        for (InstanceProcess process : processes) {
            if (process != null) {
                process.close();
            }
        }
    }

    public InstanceProcess awaitReady() {
        service.awaitReady();
        return this;
    }

    public String baseUrl() {
        return service.baseUrl();
    }

    public long pid() {
        return service.pid();
    }

    public void kill() {
        service.kill9();
    }

    public void freeze() {
        service.freeze();
    }

    public void thaw() {
        service.thaw();
    }

    public <T> T whileFrozen(Supplier<T> work) {
        return service.whileFrozen(work);
    }

    @Override
    public void close() {
        service.close();
    }
}
