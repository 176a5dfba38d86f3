package dev.wordstats.numa.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds the "checked by" references of a source tree and the ones that name no real test.
 *
 * <p>An invariant in an Overview comment, a README or CONTRIBUTING.md names the test that checks it:
 * {@code checked by NumaMcsLockTest.reservingLeadersThatGiveUpLeaveTheLockUsable}. The words "checked
 * by" start a clause that runs to the next {@code ;}, sentence end ({@code . } or a final {@code .}),
 * blank line, bullet ({@code " - "}), backtick or table cell; every reference in it has the form
 *
 * <pre>
 *   Class                      a test class (its name ends in Test or Tests)
 *   Class.member, Class#member a method, or a nested class (a jcstress test), of that class
 *   Class.a/b                  Class.a and Class.b
 *   Class.prefix{A,B}suffix    Class.prefixAsuffix and Class.prefixBsuffix
 *   Class.*                    the class as a whole
 * </pre>
 *
 * <p>A class is found when a file under some module's {@code src/test/java} or under {@code
 * concurrency-tests/src/main/java} declares it (top level or nested); a member when that class, or a
 * class it extends, declares a method or nested class of that name. In Java files only comments are
 * read (string literals are not references); build output ({@code target*}) and hidden folders are
 * skipped.
 */
final class CheckedByReferences {

    /** One reference as written, with where it was found. */
    record Reference(Path file, int line, String className, String member) {

        @Override
        public String toString() {
            return file + ":" + line + ": checked by " + className + (member == null ? "" : "." + member);
        }
    }

    static final Pattern PHRASE = Pattern.compile("\\bchecked by\\b");

    /** Where a clause after "checked by" ends. */
    private static final Pattern CLAUSE_END = Pattern.compile(";|\\.(?=\\s|$)|\\n\\s*\\n|`|\\s-\\s|\\|");

    private static final String MEMBER = "(?:\\*|\\w*\\{[\\w,\\s]+\\}\\w*|\\w+)";

    /** One reference: the class, then optionally a member list; the one spelling every document uses. */
    static final Pattern REFERENCE =
            Pattern.compile("\\b([A-Z]\\w*Tests?)\\b(?:[.#](" + MEMBER + "(?:/" + MEMBER + ")*))?");

    private static final Pattern BRACES = Pattern.compile("^(\\w*)\\{([\\w,\\s]+)\\}(\\w*)$");

    private static final Pattern TYPE_DECLARATION =
            Pattern.compile("\\b(?:class|interface|record|enum)\\s+([A-Za-z_]\\w*)");

    private final Path root;
    private final Map<String, List<TypeSource>> types = new HashMap<>();

    private CheckedByReferences(Path root) {
        this.root = root;
    }

    /** Every reference under {@code root} that names a class or member no test source declares. */
    static List<Reference> broken(Path root) {
        CheckedByReferences refs = new CheckedByReferences(root);
        refs.indexTestSources();
        List<Reference> broken = new ArrayList<>();
        for (Reference ref : scan(root)) {
            if (!refs.resolves(ref)) {
                broken.add(ref);
            }
        }
        return broken;
    }

    /** Every reference under {@code root}, in Java comments, README*.md and CONTRIBUTING.md. */
    static List<Reference> scan(Path root) {
        List<Reference> found = new ArrayList<>();
        for (Path file : files(root)) {
            String name = file.getFileName().toString();
            String text = read(file);
            if (name.endsWith(".java")) {
                text = commentsOnly(text);
            }
            found.addAll(references(root.relativize(file), text));
        }
        return found;
    }

    /** The references in {@code text}; line numbers count from 1. */
    static List<Reference> references(Path file, String text) {
        String[] lines = text.split("\n", -1);
        StringBuilder joined = new StringBuilder();
        int[] lineStart = new int[lines.length];
        for (int i = 0; i < lines.length; i++) {
            lineStart[i] = joined.length();
            joined.append(stripCommentMarks(lines[i])).append('\n');
        }
        List<Reference> found = new ArrayList<>();
        Matcher phrase = PHRASE.matcher(joined);
        while (phrase.find()) {
            int from = phrase.end();
            Matcher end = CLAUSE_END.matcher(joined);
            int to = end.find(from) ? end.start() : joined.length();
            Matcher ref = REFERENCE.matcher(joined.subSequence(0, to));
            ref.region(from, to);
            while (ref.find()) {
                int line = lineOf(lineStart, ref.start());
                if (ref.group(2) == null) {
                    found.add(new Reference(file, line, ref.group(1), null));
                } else {
                    for (String member : expand(ref.group(2))) {
                        found.add(new Reference(file, line, ref.group(1), member));
                    }
                }
            }
        }
        return found;
    }

    /** {@code a/b} -> a, b; {@code x{A,B}y} -> xAy, xBy; {@code *} -> no member. */
    static List<String> expand(String members) {
        List<String> out = new ArrayList<>();
        for (String part : members.split("/")) {
            Matcher braces = BRACES.matcher(part);
            if (part.equals("*")) {
                out.add(null);
            } else if (braces.matches()) {
                for (String alternative : braces.group(2).split(",")) {
                    out.add(braces.group(1) + alternative.strip() + braces.group(3));
                }
            } else {
                out.add(part);
            }
        }
        return out;
    }

    private boolean resolves(Reference ref) {
        for (TypeSource type : types.getOrDefault(ref.className(), List.of())) {
            if (ref.member() == null || declares(type, ref.member(), new HashSet<>())) {
                return true;
            }
        }
        return false;
    }

    private boolean declares(TypeSource type, String member, Set<TypeSource> seen) {
        if (!seen.add(type)) {
            return false;
        }
        String m = Pattern.quote(member);
        Pattern method = Pattern.compile("[\\w>\\]]\\s+" + m + "\\s*\\([^;{}]*\\)\\s*(?:throws\\s[\\w\\s,.]+)?\\{");
        Pattern nested = Pattern.compile("\\b(?:class|interface|record|enum)\\s+" + m + "\\b");
        if (method.matcher(type.body()).find() || nested.matcher(type.body()).find()) {
            return true;
        }
        if (type.superName() != null) {
            for (TypeSource parent : types.getOrDefault(type.superName(), List.of())) {
                if (declares(parent, member, seen)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A declared type: its body (comments and literals blanked) and the simple name it extends. */
    private record TypeSource(String name, String body, String superName) {}

    private void indexTestSources() {
        List<Path> sourceRoots = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            modules.filter(Files::isDirectory).forEach(module -> {
                sourceRoots.add(module.resolve("src/test/java"));
                if (module.getFileName().toString().equals("concurrency-tests")) {
                    sourceRoots.add(module.resolve("src/main/java"));
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Path sourceRoot : sourceRoots) {
            if (!Files.isDirectory(sourceRoot)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(sourceRoot)) {
                walk.filter(p -> p.toString().endsWith(".java")).forEach(this::index);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private void index(Path javaFile) {
        String code = codeOnly(read(javaFile));
        Matcher declaration = TYPE_DECLARATION.matcher(code);
        while (declaration.find()) {
            int open = code.indexOf('{', declaration.end());
            if (open < 0) {
                continue;
            }
            String header = code.substring(declaration.end(), open);
            Matcher ext = Pattern.compile("\\bextends\\s+([\\w.]+)").matcher(header);
            String superName = ext.find() ? ext.group(1).replaceAll(".*\\.", "") : null;
            String body = code.substring(open, matchingBrace(code, open));
            String name = declaration.group(1);
            types.computeIfAbsent(name, k -> new ArrayList<>()).add(new TypeSource(name, body, superName));
        }
    }

    private static int matchingBrace(String code, int open) {
        int depth = 0;
        for (int i = open; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i + 1;
            }
        }
        return code.length();
    }

    private static List<Path> files(Path root) {
        List<Path> found = new ArrayList<>();
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    return !dir.equals(root) && skipped(dir.getFileName().toString())
                            ? FileVisitResult.SKIP_SUBTREE
                            : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    String name = file.getFileName().toString();
                    if (name.endsWith(".java")
                            || (name.startsWith("README") && name.endsWith(".md"))
                            || name.equals("CONTRIBUTING.md")) {
                        found.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        found.sort(null);
        return found;
    }

    /** Build output ({@code target}, {@code target-ide}, ...), hidden folders and node_modules. */
    private static boolean skipped(String dirName) {
        return dirName.startsWith("target") || dirName.startsWith(".") || dirName.equals("node_modules");
    }

    private static String stripCommentMarks(String line) {
        String s = line.strip();
        if (s.startsWith("/**")) {
            s = s.substring(3);
        } else if (s.startsWith("/*") || s.startsWith("//")) {
            s = s.substring(2);
        } else if (s.startsWith("*") && !s.startsWith("*/")) {
            s = s.substring(1);
        }
        s = s.strip();
        if (s.startsWith("//")) {
            s = s.substring(2);
        }
        if (s.endsWith("*/")) {
            s = s.substring(0, s.length() - 2);
        }
        return s.strip();
    }

    private static int lineOf(int[] lineStart, int offset) {
        int line = 0;
        while (line + 1 < lineStart.length && lineStart[line + 1] <= offset) {
            line++;
        }
        return line + 1;
    }

    /** The comments of a Java source, everything else blanked (newlines kept, so lines still count). */
    static String commentsOnly(String source) {
        return split(source, true);
    }

    /** The code of a Java source, comments and literals blanked. */
    static String codeOnly(String source) {
        return split(source, false);
    }

    private static String split(String s, boolean keepComments) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            int end;
            boolean comment;
            if (s.startsWith("//", i)) {
                end = s.indexOf('\n', i);
                end = end < 0 ? s.length() : end;
                comment = true;
            } else if (s.startsWith("/*", i)) {
                end = s.indexOf("*/", i + 2);
                end = end < 0 ? s.length() : end + 2;
                comment = true;
            } else if (s.startsWith("\"\"\"", i)) {
                end = literalEnd(s, i + 3, "\"\"\"");
                comment = false;
            } else if (s.charAt(i) == '"' || s.charAt(i) == '\'') {
                end = literalEnd(s, i + 1, String.valueOf(s.charAt(i)));
                comment = false;
            } else {
                out.append(keepComments && s.charAt(i) != '\n' ? ' ' : s.charAt(i));
                i++;
                continue;
            }
            boolean keep = comment && keepComments;
            for (int j = i; j < end; j++) {
                char c = s.charAt(j);
                out.append(keep || c == '\n' ? c : ' ');
            }
            i = end;
        }
        return out.toString();
    }

    private static int literalEnd(String s, int from, String quote) {
        int i = from;
        while (i < s.length()) {
            if (s.charAt(i) == '\\') {
                i += 2;
            } else if (s.startsWith(quote, i)) {
                return i + quote.length();
            } else if (s.charAt(i) == '\n' && quote.length() == 1) {
                return i;
            } else {
                i++;
            }
        }
        return s.length();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
