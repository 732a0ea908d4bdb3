package com.kvportal;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.IntegrationTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every shell block of the documentation ({@code ```sh}, {@code ```bash}, {@code ```shell} fences of README.md,
 * docs/*.md and bench/README.md) runs against this service, so that the walks cannot drift from the code.
 *
 * <p>A file's blocks run in order in one bash process ({@code set -euo pipefail}: state chains within a file); a
 * file in docs/ continues the README's first walk, so the README's blocks run first in its process. The blocks check
 * their documented answers themselves ({@code is "$(… | field code)" api_key_revoked}); any failing command fails the
 * test. The service is the suite's ({@link IntegrationTest}): the blocks find its address in {@code B}, the sandbox
 * key in {@code SK}, and the tokens in {@code USAGE_API_TOKEN} and {@code METRICS_TOKEN}, as a reader who
 * configured them sets them by hand (after a bare start the README's walk reads the local ones instead: the whole
 * walk in one shell from a bare start is {@link DocsWalkIT}'s). A block that cannot run here (real Stripe, the Stripe CLI, starting the service, a long benchmark) says
 * so in its fence: {@code ```sh no-run <why>}; the test counts and lists those. The scripts as run are kept in
 * {@code target/docs-walk/}.
 */
class DocsWalkTest extends IntegrationTest {

    private static final Path ROOT = Path.of("").toAbsolutePath();
    private static final Pattern FENCE = Pattern.compile("^(\\s*)(```+)\\s*(\\S*)(.*)$");
    private static final List<String> SHELLS = List.of("sh", "bash", "shell");
    private static final Map<String, String> SUMMARY = new ConcurrentHashMap<>();

    /** A shell block of a Markdown file: where it starts, whether it runs, and its text. */
    record Block(Path file, int line, boolean runs, String why, String text) {

        String where() {
            return ROOT.relativize(file) + ":" + line;
        }
    }

    static Stream<Path> files() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        files.add(ROOT.resolve("bench/README.md"));
        return files.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void everyShellBlockRunsAndAnswersAsDocumented(Path file) throws Exception {
        List<Block> blocks = blocks(file);
        List<Block> running = new ArrayList<>();
        boolean ownRuns = blocks.stream().anyMatch(Block::runs);
        if (ownRuns && file.startsWith(ROOT.resolve("docs"))) {
            blocks(ROOT.resolve("README.md")).stream().filter(Block::runs).forEach(running::add);
        }
        blocks.stream().filter(Block::runs).forEach(running::add);
        List<Block> skipped = blocks.stream().filter(b -> !b.runs()).toList();
        StringBuilder summary = new StringBuilder();
        summary.append(blocks.size() - skipped.size())
                .append(" run, ")
                .append(skipped.size())
                .append(" skipped");
        skipped.forEach(b ->
                summary.append("\n    skipped ").append(b.where()).append(": ").append(b.why()));
        SUMMARY.put(ROOT.relativize(file).toString(), summary.toString());
        if (file.equals(ROOT.resolve("README.md"))) {
            assertThat(ownRuns)
                    .as("the README's first walk is a runnable shell block")
                    .isTrue();
        }
        if (!ownRuns) {
            return;
        }
        String output = run(file, running);
        assertThat(output).as("the walk of %s ran to its end", file).contains("### end of walk");
    }

    @Test
    void aFenceThatIsNoShellBlockIsNotMistakenForOne() throws IOException {
        Path file = Files.createTempFile("walk", ".md");
        Files.writeString(
                file,
                """
                ```sh
                echo one
                ```
                ```json
                {"a":1}
                ```
                ```sh no-run starts real Stripe
                stripe login
                ```
                ```bash
                echo two
                ```
                """);
        List<Block> blocks = blocks(file);
        assertThat(blocks).extracting(Block::text).containsExactly("echo one\n", "stripe login\n", "echo two\n");
        assertThat(blocks).extracting(Block::runs).containsExactly(true, false, true);
        assertThat(blocks.get(1).why()).isEqualTo("starts real Stripe");
        Files.delete(file);
    }

    @AfterAll
    static void listWhatRanAndWhatWasSkipped() {
        StringBuilder out = new StringBuilder("Documentation shell blocks:");
        SUMMARY.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> out.append("\n  ").append(e.getKey()).append(": ").append(e.getValue()));
        System.out.println(out);
    }

    static List<Block> blocks(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches()) {
                continue;
            }
            String indent = open.group(1);
            String fence = open.group(2);
            String info = open.group(3);
            String rest = open.group(4).trim();
            StringBuilder text = new StringBuilder();
            int start = i + 1;
            i++;
            while (i < lines.size() && !lines.get(i).trim().equals(fence)) {
                String line = lines.get(i);
                text.append(line.startsWith(indent) ? line.substring(indent.length()) : line)
                        .append('\n');
                i++;
            }
            assertThat(i).as("the block opened at %s:%d is closed", file, start).isLessThan(lines.size());
            if (!SHELLS.contains(info)) {
                continue;
            }
            boolean runs = !rest.startsWith("no-run");
            String why = runs ? "" : rest.substring("no-run".length()).trim();
            assertThat(runs || !why.isEmpty())
                    .as("the no-run block at %s:%d says why it cannot run", file, start)
                    .isTrue();
            blocks.add(new Block(file, start, runs, why, text.toString()));
        }
        return blocks;
    }

    /**
     * The blocks as one bash script ({@code set -euo pipefail}), each announced by its place, ending with
     * {@code ### end of walk}.
     */
    static String script(List<Block> blocks) {
        StringBuilder script = new StringBuilder("set -euo pipefail\n");
        script.append("trap 'echo \"### failed: line $LINENO: $BASH_COMMAND\" >&2' ERR\n");
        for (Block block : blocks) {
            script.append("echo '### ").append(block.where()).append("' >&2\n");
            script.append(block.text());
        }
        script.append("echo '### end of walk' >&2\n");
        return script.toString();
    }

    private String run(Path file, List<Block> blocks) throws Exception {
        String script = script(blocks);
        Path dir = Files.createDirectories(ROOT.resolve("target/docs-walk"));
        Path scriptFile =
                dir.resolve(ROOT.relativize(file).toString().replace('/', '_').replace(".md", ".sh"));
        Files.writeString(scriptFile, script);
        Path work = Files.createTempDirectory("docs-walk");
        Path log = dir.resolve(scriptFile.getFileName() + ".log");
        ProcessBuilder builder = new ProcessBuilder("bash", scriptFile.toString())
                .directory(work.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("B", baseUrl());
        builder.environment().put("SK", SANDBOX_KEY);
        builder.environment().put("USAGE_API_TOKEN", USAGE_TOKEN);
        builder.environment().put("METRICS_TOKEN", METRICS_TOKEN);
        Process process = builder.start();
        boolean done = process.waitFor(4, TimeUnit.MINUTES);
        if (!done) {
            process.destroyForcibly().waitFor();
        }
        String output = Files.readString(log);
        assertThat(done)
                .as("the walk of %s ended within 4 minutes:\n%s", file, output)
                .isTrue();
        assertThat(process.exitValue())
                .as("the walk of %s (%s) exited 0; its output:\n%s", file, scriptFile, output)
                .isZero();
        return output;
    }
}
