package com.kvportal.support;

import java.util.ArrayList;
import java.util.List;

/**
 * Service processes launched side by side on one database and all ready (a cluster, with or without the test's own
 * instance); closing the group stops every one that is left. If one does not get ready, none is left running.
 */
public final class ServiceGroup implements AutoCloseable {

    private final List<ServiceProcess> processes;

    private ServiceGroup(List<ServiceProcess> processes) {
        this.processes = processes;
    }

    /** One process per name (its log's name), each with these command line settings. */
    public static ServiceGroup launch(String databaseUrl, List<String> names, String... arguments) {
        List<ServiceProcess> processes = new ArrayList<>();
        try {
            for (String name : names) {
                processes.add(ServiceProcess.launch(name, databaseUrl, arguments));
            }
            processes.forEach(ServiceProcess::awaitReady);
            return new ServiceGroup(processes);
        } catch (RuntimeException e) {
            processes.forEach(ServiceProcess::close);
            throw e;
        }
    }

    /** The process of the {@code index}th name. */
    public ServiceProcess get(int index) {
        return processes.get(index);
    }

    @Override
    public void close() {
        processes.forEach(ServiceProcess::close);
    }
}
