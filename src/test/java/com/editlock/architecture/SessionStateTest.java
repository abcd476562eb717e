package com.editlock.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.editlock.platform.Settings;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import jakarta.enterprise.context.SessionScoped;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import java.io.Serializable;
import org.junit.jupiter.api.Test;

/**
 * What a page keeps in the session can be read on another node ({@code LOCKS_GRID=true}): a node
 * that stops hands its sessions, with their Faces views and view-scoped beans, to the grid, and the
 * next request of the same tab may land anywhere. So a view- or session-scoped bean is {@link
 * Serializable}, and none of its injected fields — its own or inherited — is {@code transient}: a
 * transient injection is {@code null} after the move, and the tab's Save fails (seen: a rolling
 * restart under an open edit page ended in a NullPointerException at Save). Injected beans travel
 * as the container's serializable proxies; {@link Settings} travels as a marker that reads this
 * node's own settings back.
 */
class SessionStateTest {

    private static final JavaClasses MAIN =
            new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("com.editlock");

    private static final ArchCondition<JavaClass> KEEP_THEIR_INJECTIONS =
            new ArchCondition<>("keep every injected field (own or inherited) non-transient") {
                @Override
                public void check(JavaClass bean, ConditionEvents events) {
                    for (JavaField field : bean.getAllFields()) {
                        if (field.isAnnotatedWith(Inject.class)
                                && field.getModifiers().contains(JavaModifier.TRANSIENT)) {
                            events.add(
                                    SimpleConditionEvent.violated(
                                            field,
                                            field.getFullName()
                                                    + " is injected and transient: null on the"
                                                    + " node that reads "
                                                    + bean.getSimpleName()
                                                    + " from the session"));
                        }
                    }
                }
            };

    static final ArchRule SERIALIZABLE =
            classes()
                    .that()
                    .areAnnotatedWith(ViewScoped.class)
                    .or()
                    .areAnnotatedWith(SessionScoped.class)
                    .should()
                    .implement(Serializable.class)
                    .because("the session carries them to whichever node takes the next request");

    static final ArchRule INJECTIONS_TRAVEL =
            classes()
                    .that()
                    .areAnnotatedWith(ViewScoped.class)
                    .or()
                    .areAnnotatedWith(SessionScoped.class)
                    .should(KEEP_THEIR_INJECTIONS);

    @Test
    void viewAndSessionScopedBeansAreSerializable() {
        SERIALIZABLE.check(MAIN);
    }

    @Test
    void theirInjectedFieldsTravelWithThem() {
        INJECTIONS_TRAVEL.check(MAIN);
    }

    @Test
    void aTransientInjectionIsCaught() {
        JavaClasses planted =
                new ClassFileImporter().importClasses(PlantedTransientInjection.class);
        assertThatThrownBy(() -> INJECTIONS_TRAVEL.check(planted))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("PlantedTransientInjection.settings");
    }

    @Test
    void aBeanThatCannotBeSerializedIsCaught() {
        JavaClasses planted = new ClassFileImporter().importClasses(PlantedUnserializable.class);
        assertThatThrownBy(() -> SERIALIZABLE.check(planted))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("PlantedUnserializable");
    }

    /** The bug of the first rolling restart: an injected field marked transient. */
    @ViewScoped
    static class PlantedTransientInjection implements Serializable {
        private static final long serialVersionUID = 1L;
        @Inject transient Settings settings;
    }

    @SessionScoped
    static class PlantedUnserializable {}
}
