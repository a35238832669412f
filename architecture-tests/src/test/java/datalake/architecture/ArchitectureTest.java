package datalake.architecture;

import static com.tngtech.archunit.core.domain.JavaAccess.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.net.URI;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shape of the code, as every module's main classes have it (docs/DESIGN.md, "Modules"): one module per
 * package, what each module may use, thin handlers, no public type that no other module or package needs,
 * and {@code Optional} for what a table or store may not hold.
 */
@AnalyzeClasses(packages = "datalake", importOptions = {ImportOption.DoNotIncludeTests.class,
        ArchitectureTest.NoTestJars.class})
class ArchitectureTest {

    /** The test-jars the benchmarks module brings along hold test code, not the main code these rules are about. */
    static final class NoTestJars implements ImportOption {
        @Override
        public boolean includes(Location location) {
            return !location.contains("-tests.jar");
        }
    }

    // ---------------------------------------------------------------- modules and packages

    @ArchTest
    static void everyPackageBelongsToOneModule(JavaClasses classes) {
        Map<String, Set<String>> modules = new TreeMap<>();
        for (JavaClass c : classes) {
            modules.computeIfAbsent(c.getPackageName(), p -> new TreeSet<>()).add(moduleOf(c));
        }
        Map<String, Set<String>> split = new TreeMap<>();
        modules.forEach((pkg, in) -> {
            if (in.size() > 1) {
                split.put(pkg, in);
            }
        });
        assertEquals(Map.of(), split, "packages declared in more than one module (a module reaching into another's"
                + " package-private code): give each its own package, or put the code beside that module's tests");
    }

    /** The modules, lowest first: each may use those below it that it is allowed to, and none above. */
    @ArchTest
    static final ArchRule eachModuleUsesOnlyWhatItMay = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("common-records").definedBy("datalake.records..")
            .layer("records-dynamodb").definedBy("datalake.dynamodb..")
            .layer("lambda-support").definedBy("datalake.lambda..")
            .layer("emulators").definedBy("datalake.emulators..")
            .layer("lambda-ingester").definedBy("datalake.ingester..")
            .layer("lambda-query").definedBy("datalake.query..")
            .layer("index-tools").definedBy("datalake.tools..")
            .layer("local-runner").definedBy("datalake.local..")
            .layer("benchmarks").definedBy("datalake.bench..")
            .whereLayer("benchmarks").mayNotBeAccessedByAnyLayer()
            .whereLayer("local-runner").mayNotBeAccessedByAnyLayer()
            .whereLayer("index-tools").mayNotBeAccessedByAnyLayer()
            .whereLayer("lambda-query").mayOnlyBeAccessedByLayers("local-runner", "benchmarks")
            .whereLayer("lambda-ingester").mayOnlyBeAccessedByLayers("index-tools", "local-runner", "benchmarks")
            .whereLayer("emulators").mayOnlyBeAccessedByLayers("local-runner", "benchmarks")
            .whereLayer("lambda-support").mayOnlyBeAccessedByLayers("emulators", "lambda-ingester", "lambda-query",
                    "index-tools", "local-runner", "benchmarks")
            .whereLayer("records-dynamodb").mayOnlyBeAccessedByLayers("emulators", "lambda-ingester", "lambda-query",
                    "index-tools", "local-runner", "benchmarks")
            .because("the functions share only their libraries, and nothing deployed depends on the emulators,"
                    + " the tools, the local runner or the benchmarks");

    @ArchTest
    static final ArchRule theDomainUsesNoAws = noClasses().that().resideInAPackage("datalake.records..")
            .should().dependOnClassesThat().resideInAnyPackage("software.amazon..", "com.amazonaws..")
            .because("common-records is the pure domain: metadata, keys, records, hashing");

    // ---------------------------------------------------------------- handlers

    @ArchTest
    static final ArchRule handlersAreThin = noClasses()
            .that().implement(RequestHandler.class).or().implement(RequestStreamHandler.class)
            .should().callMethodWhere(target(owner(JavaClass.Predicates.resideInAPackage("software.amazon.awssdk.services.."))))
            .orShould().dependOnClassesThat(collaborators())
            .because("a handler builds its function once and hands each event to it (Ingester, QueryApi): the"
                    + " tables, stores, parsers and AWS calls live behind that entry point");

    /** The functions' parts behind their entry points: tables, stores, the index, publishers, parsers, pagers. */
    private static DescribedPredicate<JavaClass> collaborators() {
        return JavaClass.Predicates.resideInAnyPackage("datalake.ingester", "datalake.query")
                .and(DescribedPredicate.describe("a table, store, index, publisher, queue, parser or pager",
                        c -> nameMatching(".*(Table|Store|Index|Publisher|Queue|Parser|Pager)").test(c)
                                || c.getAllRawInterfaces().stream().anyMatch(
                                        i -> i.getSimpleName().matches(".*(Table|Store|Index|Publisher|Queue)"))));
    }

    // ---------------------------------------------------------------- the tables' and stores' contracts

    @ArchTest
    static final ArchRule absentIsOptional = methods()
            .that().areDeclaredInClassesThat().areInterfaces()
            .and().areDeclaredInClassesThat().resideInAnyPackage("datalake.ingester", "datalake.query")
            .and().areDeclaredInClassesThat().haveNameMatching(".*(Table|Store|Index)")
            .should(answerOptionalForOneValue())
            .because("both functions say 'none' one way: Optional, never null");

    /** One value that may be absent comes as an Optional; collections, maps, primitives and the interfaces' own results are whole. */
    private static ArchCondition<JavaMethod> answerOptionalForOneValue() {
        return new ArchCondition<>("answer Optional, a collection, a map, a primitive or a result type of a table") {
            @Override
            public void check(JavaMethod method, ConditionEvents events) {
                JavaClass answer = method.getRawReturnType();
                boolean whole = answer.isPrimitive() || answer.getName().equals("void")
                        || answer.isEquivalentTo(Optional.class)
                        || answer.isAssignableTo(Collection.class) || answer.isAssignableTo(Map.class)
                        || answer.isEquivalentTo(URI.class)
                        || answer.getEnclosingClass().map(c -> c.getSimpleName().matches(".*(Table|Store|Index)"))
                                .orElse(false);
                events.add(new SimpleConditionEvent(method, whole, method.getFullName() + " answers "
                        + answer.getName() + (whole ? "" : ": a value that may be absent comes as an Optional")));
            }
        };
    }

    // ---------------------------------------------------------------- the public surface

    /**
     * The public top-level types of every package, and who needs each (another module's main or test code, or
     * another package of the same module): everything else is package-private. A new public type goes here
     * with its reason; one that no longer needs to be public leaves.
     */
    private static final Map<String, List<String>> PUBLIC_TYPES = Map.ofEntries(
            // The pure domain, used by every other module (ContentHash also by the local runner's pushes).
            Map.entry("datalake.records", List.of("ContentHash", "DatalakeJson", "InvalidMetadataException", "Keys",
                    "Metadata", "MetadataParser", "MetadataRules", "Record", "RecordFactory", "ShardMap",
                    "ShardMapSource", "StatusReport", "TimeBuckets", "Times", "UnsupportedTimeRangeException")),
            // The record format, the per-object items and the shard map, shared by both functions and the tools
            // (AttributeJson: metadata's extra fields as stored, also for the query API's answers).
            Map.entry("datalake.dynamodb", List.of("AttributeJson", "CachedShardMap", "ObjectEntry", "ObjectItems",
                    "RecordItems", "RecordKey", "ShardMapItem", "ShardMapTable", "StoredRecord", "UnreadableItemException")),
            // The functions' shared runtime: environment catalogue, SDK clients, JSON log, SnapStart priming.
            Map.entry("datalake.lambda", List.of("CannedHttpClient", "ConfigurationException", "Environment",
                    "EnvironmentVariable", "JsonLog", "LambdaCredentials", "LambdaHttpClient", "Priming",
                    "SdkClientFactory", "SnapshotPriming")),
            // The emulators, for the local runner, the benchmarks and the other modules' tests: the shared
            // processes and their clients (Emulators, Dynalite, MotoServer, LocalEndpoints, AwsEndpoints; a
            // missing install is EmulatorNotInstalledException, which the template package throws too); the
            // stack and Lambda's and API Gateway's parts around a handler (DatalakeStack, SqsLambdaPoller,
            // SqsMessages, HttpApiServer, SigV4Verifier, LocalLambdaContext); the explorer page (StaticFile).
            Map.entry("datalake.emulators", List.of("AwsEndpoints", "DatalakeStack", "Dynalite",
                    "EmulatorNotInstalledException", "Emulators", "HttpApiServer", "LocalEndpoints",
                    "LocalLambdaContext", "MotoServer", "SigV4Verifier", "SqsLambdaPoller", "SqsMessages",
                    "StaticFile")),
            // The IAM proof's recording: written by the stack's clients, read by deploy-checks' IamProofIT.
            Map.entry("datalake.emulators.calls", List.of("CallRecorder", "RecordedCall", "StackRecord")),
            // template.yaml's stack as DatalakeStack builds it; the local runner's API routes and functions, the
            // benchmarks' event source.
            Map.entry("datalake.emulators.stack", List.of("ApiRouter", "ApiSettings", "FunctionSettings",
                    "SqsEventSource", "TemplateStack")),
            // template.yaml resolved as CloudFormation would: the stack package, deploy-checks' template and IAM
            // tests, the ingester's and the local runner's tests (Repository: where the repository is).
            Map.entry("datalake.emulators.template", List.of("Repository", "ResolvedTemplate", "SamTransform",
                    "Template", "TemplateCopy", "TemplateException")),
            // The Lambda handlers (template.yaml); Ingester and what its builder and follow() speak (ErrorKind: a
            // Failure's, which backfill prints); and what index-tools shares with the ingester: follow() is its
            // path for every write, StoredIndex (with StoredObject) the few reads and removals a reconcile's
            // repair makes, in front of the ingester's package-private tables; Sleeper for the shard change's waits;
            // IngesterPriming for the cold-start benchmark's primed runs.
            Map.entry("datalake.ingester", List.of("BackfillHandler", "Deadline", "ErrorKind", "Failure", "Followed",
                    "Ingester", "IngesterClients", "IngesterConfig", "IngesterHandler", "IngesterPriming", "ObjectEvent",
                    "Sleeper", "StoredIndex", "StoredObject", "Telemetry")),
            // The Lambda handler (template.yaml) and the API the local runner and the benchmarks build; the
            // priming the cold-start benchmark runs.
            Map.entry("datalake.query", List.of("QueryApi", "QueryClients", "QueryConfig", "QueryHandler",
                    "QueryPriming")),
            // Command-line entry points (scripts/adopt.sh, backfill.sh, reconcile.sh, shards.sh).
            Map.entry("datalake.tools", List.of("AdoptCommand", "BackfillCommand", "ReconcileCommand", "ShardsCommand")),
            // scripts/local.sh and scripts/push.sh.
            Map.entry("datalake.local", List.of("LocalRunner", "Push")),
            // The benchmarks scripts/bench.sh runs by class name.
            Map.entry("datalake.bench", List.of("ColdStartBenchmark", "ColdStartIngester", "ColdStartQuery",
                    "FreshnessBenchmark", "IngestBenchmark", "IngestProfile", "IngesterJvmBenchmark", "ScaleBenchmark")),
            // The partition-limit model in front of dynalite, used only by the scale benchmark (ScaleRun, ReadCost):
            // it sits beside its one user rather than in emulators, where no test or tool used it.
            Map.entry("datalake.bench.limits", List.of("KeyTally", "PartitionKey", "PartitionLimits", "PartitionModel",
                    "ThrottlingProxy")));

    @ArchTest
    static void aTypeIsPublicOnlyWhereAnotherModuleNeedsIt(JavaClasses classes) {
        Set<String> listed = new TreeSet<>();
        PUBLIC_TYPES.forEach((pkg, types) -> types.forEach(t -> listed.add(pkg + "." + t)));
        Set<String> found = new TreeSet<>();
        for (JavaClass c : classes) {
            if (c.isTopLevelClass() && c.getModifiers().contains(JavaModifier.PUBLIC)) {
                found.add(c.getName());
            }
        }
        Set<String> unlisted = new TreeSet<>(found);
        unlisted.removeAll(listed);
        Set<String> stale = new TreeSet<>(listed);
        stale.removeAll(found);
        assertEquals(Set.of(), unlisted, "public types no other module or package is known to need: make them"
                + " package-private, or list them in PUBLIC_TYPES with who needs them");
        assertEquals(Set.of(), stale, "listed in PUBLIC_TYPES but no longer public types: take them off the list");
    }

    // ---------------------------------------------------------------- where a class comes from

    private static final Pattern JAR = Pattern.compile("([^/]+?)-\\d[^/]*\\.jar!");
    private static final Pattern CLASSES = Pattern.compile("([^/]+)/target/classes/");

    /** The module of a class: its jar's name without the version, or the directory above target/classes. */
    static String moduleOf(JavaClass c) {
        String uri = c.getSource().map(s -> s.getUri().toString()).orElse("");
        Matcher jar = JAR.matcher(uri);
        if (jar.find()) {
            return jar.group(1);
        }
        Matcher classes = CLASSES.matcher(uri);
        return classes.find() ? classes.group(1) : uri;
    }
}
