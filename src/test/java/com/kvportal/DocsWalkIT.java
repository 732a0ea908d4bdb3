package com.kvportal;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.DocsWalkTest.Block;
import com.kvportal.support.ServiceProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documentation as a person follows it: after a bare start (a separate JVM in an empty directory, none of the
 * documented variables set), every shell block of README.md and then of each file under docs/ in the order the
 * README lists them, pasted into ONE shell. Nothing is preset but the service's address {@code B} (a free port,
 * not 8080): the tokens the blocks need are the local ones of the bare start, read as the docs show. The walk must
 * run to its end with no failed check ({@code expected …, got …}), no traceback, and the same service process
 * throughout (no restart). Each file alone, with tokens preset, is {@link DocsWalkTest}'s.
 */
class DocsWalkIT {

    private static final Path ROOT = Path.of("").toAbsolutePath();
    private static final Pattern DOC_LINK = Pattern.compile("\\]\\((docs/[^)#]+\\.md)\\)");

    /** The docs/ files in the order the README's "Documentation" section links them. */
    static List<Path> docsInTheReadmesOrder() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
        String section = readme.substring(readme.indexOf("\n## Documentation"));
        Set<Path> order = new LinkedHashSet<>();
        Matcher link = DOC_LINK.matcher(section);
        while (link.find()) {
            order.add(ROOT.resolve(link.group(1)));
        }
        return List.copyOf(order);
    }

    @Test
    void theReadmeListsEveryDocOnce() throws IOException {
        List<Path> all;
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            all = docs.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        }
        assertThat(docsInTheReadmesOrder()).containsExactlyInAnyOrderElementsOf(all);
    }

    @Test
    void theReadmeAndEveryDocRunInOneShellAgainstOneBareStart() throws Exception {
        List<Block> blocks = new ArrayList<>();
        List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        files.addAll(docsInTheReadmesOrder());
        for (Path file : files) {
            DocsWalkTest.blocks(file).stream().filter(Block::runs).forEach(blocks::add);
        }
        Path dir = Files.createDirectories(ROOT.resolve("target/docs-walk"));
        Path script = dir.resolve("one-shell.sh");
        Files.writeString(script, DocsWalkTest.script(blocks));
        Path log = dir.resolve("one-shell.sh.log");

        Path work = Files.createTempDirectory(Files.createDirectories(ROOT.resolve("target")), "bare-start");
        try (ServiceProcess service = ServiceProcess.bare(work)) {
            long pid = service.process().pid();
            ProcessBuilder shell = new ProcessBuilder("bash", script.toString())
                    .directory(work.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            List.of("SK", "USAGE_API_TOKEN", "METRICS_TOKEN").forEach(shell.environment()::remove);
            shell.environment().put("B", "http://localhost:" + portOf(service));
            Process walk = shell.start();
            boolean done = walk.waitFor(6, TimeUnit.MINUTES);
            if (!done) {
                walk.destroyForcibly().waitFor();
            }
            String output = Files.readString(log);
            assertThat(done).as("the walk ended within 6 minutes:\n%s", output).isTrue();
            assertThat(walk.exitValue())
                    .as("the walk (%s) exited 0; its output:\n%s", script, output)
                    .isZero();
            assertThat(output).contains("### end of walk");
            assertThat(output).doesNotContainPattern("expected .*, got ").doesNotContain("Traceback");
            assertThat(service.process().isAlive()).as("the service still runs").isTrue();
            assertThat(service.process().pid()).isEqualTo(pid);
            assertThat(service.output().split("Started KvPortalApplication", -1))
                    .as("the service started once")
                    .hasSize(2);
        }
        // kept when the walk failed, for its log and data
        deleteTree(work);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    private static int portOf(ServiceProcess service) {
        String url = service.baseUrl();
        return Integer.parseInt(url.substring(url.lastIndexOf(':') + 1));
    }
}
