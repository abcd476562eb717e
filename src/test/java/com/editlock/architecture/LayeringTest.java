package com.editlock.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.editlock.lock.LockAdministration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The packages import one way, from the entry points down to the platform:
 *
 * <pre>
 * entry points   web, api, demo, container   (nothing imports them; the container wires them in)
 * services       configurator, live, security
 * answers        errors
 * lock API       lock
 * lock store     lock.internal                (nothing imports it; CDI wires it in)
 * platform       platform
 * </pre>
 *
 * A package may import its own layer's packages and those below, never above; no packages form a
 * cycle; and only the fenced {@code container} package touches the container's or the persistence
 * provider's own classes. Inside the lock API, the protocol ({@code LockManager}) and the
 * administration ({@code LockAdministration}) are two faces for two kinds of reader: only the
 * dashboard, the history page, the API and the store administer locks, and neither face offers the
 * store's own machinery (bulk renewal, the sweep, passing a lock on). Every rule has a planted
 * class it must catch.
 */
class LayeringTest {

    static final ArchRule LAYERS =
            layeredArchitecture()
                    .consideringOnlyDependenciesInLayers()
                    .layer("Entry points")
                    .definedBy(
                            "com.editlock.web..",
                            "com.editlock.api..",
                            "com.editlock.demo..",
                            "com.editlock.container..")
                    .layer("Services")
                    .definedBy(
                            "com.editlock.configurator..",
                            "com.editlock.live..",
                            "com.editlock.security..")
                    .layer("Answers")
                    .definedBy("com.editlock.errors..")
                    .layer("Lock API")
                    .definedBy("com.editlock.lock")
                    .layer("Lock store")
                    .definedBy("com.editlock.lock.internal..")
                    .layer("Platform")
                    .definedBy("com.editlock.platform..")
                    .whereLayer("Entry points")
                    .mayNotBeAccessedByAnyLayer()
                    .whereLayer("Services")
                    .mayOnlyBeAccessedByLayers("Entry points")
                    .whereLayer("Answers")
                    .mayOnlyBeAccessedByLayers("Entry points", "Services")
                    .whereLayer("Lock API")
                    .mayOnlyBeAccessedByLayers("Entry points", "Services", "Answers", "Lock store")
                    .whereLayer("Lock store")
                    .mayNotBeAccessedByAnyLayer()
                    .whereLayer("Platform")
                    .mayOnlyBeAccessedByLayers("Entry points", "Services", "Answers", "Lock store")
                    .because("imports run one way, from the entry points down to the platform");

    /**
     * The layers above consider only the classes inside them: a class in a package of no layer
     * would escape every rule, so there is none.
     */
    static final ArchRule EVERY_CLASS_IN_A_LAYER =
            classes()
                    .should()
                    .resideInAnyPackage(
                            "com.editlock.web..",
                            "com.editlock.api..",
                            "com.editlock.demo..",
                            "com.editlock.container..",
                            "com.editlock.configurator..",
                            "com.editlock.live..",
                            "com.editlock.security..",
                            "com.editlock.errors..",
                            "com.editlock.lock",
                            "com.editlock.lock.internal..",
                            "com.editlock.platform..")
                    .because("a package outside the layers would escape the layering rules");

    static final ArchRule NO_CYCLES =
            slices().matching("com.editlock.(**)").should().beFreeOfCycles();

    static final ArchRule PROVIDERS_FENCED =
            noClasses()
                    .that()
                    .resideOutsideOfPackage("com.editlock.container..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(
                            "org.eclipse.persistence..",
                            "com.sun.faces..",
                            "fish.payara..",
                            "org.glassfish..",
                            "org.apache.catalina..")
                    .because(
                            "what Editlock does because of its container lives in one fenced package, com.editlock.container");

    static final ArchRule ADMINISTRATION_CALLERS =
            noClasses()
                    .that()
                    .resideOutsideOfPackages("com.editlock.lock..", "com.editlock.api..")
                    .and()
                    .doNotHaveFullyQualifiedName("com.editlock.web.LockDashboard")
                    .and()
                    .doNotHaveFullyQualifiedName("com.editlock.web.LockHistory")
                    .and()
                    .doNotHaveFullyQualifiedName("com.editlock.security.People")
                    .should()
                    .dependOnClassesThat()
                    .areAssignableTo(LockAdministration.class)
                    .because(
                            "force releases, the history and its purge are for the dashboard, the history page, the API's admin endpoints, the store's timer and disabling a person (People)");

    static final ArchRule FACES_WITHOUT_MACHINERY =
            noMethods()
                    .that()
                    .areDeclaredInClassesThat()
                    .resideInAPackage("com.editlock.lock")
                    .and()
                    .areDeclaredInClassesThat()
                    .areInterfaces()
                    .should()
                    .haveNameMatching("renew.*|sweep.*|handOver")
                    .because(
                            "renewing leases, sweeping and passing a lock on are the store's own work (lock.internal), not a face's");

    private static final JavaClasses MAIN =
            new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("com.editlock");

    @Test
    void packagesImportOneWayFromTheEntryPointsDownToThePlatform() {
        LAYERS.check(MAIN);
    }

    @Test
    void everyClassLivesInALayer() {
        EVERY_CLASS_IN_A_LAYER.check(MAIN);
    }

    @Test
    void aClassOutsideTheLayersIsCaught() {
        JavaClasses planted = new ClassFileImporter().importClasses(PlantedContainerImport.class);
        assertThatThrownBy(() -> EVERY_CLASS_IN_A_LAYER.check(planted))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("PlantedContainerImport");
    }

    @Test
    void aClassOutsideTheFenceTouchingTheContainerIsCaught() {
        JavaClasses planted = new ClassFileImporter().importClasses(PlantedContainerImport.class);
        assertThatThrownBy(() -> PROVIDERS_FENCED.check(planted))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("PlantedContainerImport")
                .hasMessageContaining("org.glassfish.grizzly.planted.RecycledConnection");
    }

    @Test
    void noPackagesFormACycle() {
        NO_CYCLES.check(MAIN);
    }

    @Test
    void onlyTheFencedPackageTouchesTheContainersOrProvidersClasses() {
        PROVIDERS_FENCED.check(MAIN);
    }

    @Test
    void thePlatformImportingSecurityAgainIsCaughtAsUpwardAndAsACycle()
            throws ClassNotFoundException {
        JavaClasses planted = new ClassFileImporter().importPackages("com.editlock");
        assertThatThrownBy(() -> LAYERS.check(planted))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("PlantedUpwardImport")
                .hasMessageContaining("com.editlock.security.PasswordHashes");
        assertThatThrownBy(() -> NO_CYCLES.check(planted))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cycle detected");
    }

    @Test
    void onlyTheDashboardTheHistoryTheApiPeopleAndTheStoreAdministerLocks() {
        ADMINISTRATION_CALLERS.check(MAIN);
    }

    @Test
    void anEditingScreenForceReleasingByItselfIsCaught() {
        JavaClasses planted =
                new ClassFileImporter()
                        .importClasses(
                                com.editlock.web.LockDashboard.class,
                                plantedClass("com.editlock.web.PlantedAdministrationCaller"));
        assertThatThrownBy(() -> ADMINISTRATION_CALLERS.check(planted))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("PlantedAdministrationCaller")
                .hasMessageNotContaining("LockDashboard.");
    }

    @Test
    void neitherFaceOffersTheStoresMachinery() {
        FACES_WITHOUT_MACHINERY.check(MAIN);
    }

    @Test
    void aFaceOfferingABulkRenewalIsCaught() {
        JavaClasses planted =
                new ClassFileImporter()
                        .importClasses(plantedClass("com.editlock.lock.PlantedInternalFace"));
        assertThatThrownBy(() -> FACES_WITHOUT_MACHINERY.check(planted))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("PlantedInternalFace.renew");
    }

    private static Class<?> plantedClass(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new AssertionError("the planted fixture " + name + " is missing", e);
        }
    }
}
