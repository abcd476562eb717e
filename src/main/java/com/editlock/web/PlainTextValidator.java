package com.editlock.web;

import com.editlock.platform.Languages;
import com.editlock.platform.PlainText;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.component.UIComponent;
import jakarta.faces.context.FacesContext;
import jakarta.faces.validator.FacesValidator;
import jakarta.faces.validator.Validator;
import jakarta.faces.validator.ValidatorException;
import java.text.MessageFormat;
import java.util.Locale;

/**
 * Runs on every input of every screen (a default validator): text with control characters or broken
 * characters is refused with a message next to the field, and the form's other input is kept.
 */
@FacesValidator(value = "editlock.plainText", isDefault = true)
public class PlainTextValidator implements Validator<Object> {

    @Override
    public void validate(FacesContext context, UIComponent component, Object value) {
        if (value instanceof String text) {
            PlainText.Flaw flaw = PlainText.flaw(text);
            if (flaw != null) {
                String message =
                        message(
                                context.getViewRoot() == null
                                        ? null
                                        : context.getViewRoot().getLocale(),
                                flaw);
                throw new ValidatorException(
                        new FacesMessage(FacesMessage.SEVERITY_ERROR, message, message));
            }
        }
    }

    /** What the reader is told about {@code flaw}, in their language. */
    static String message(Locale reader, PlainText.Flaw flaw) {
        Locale language = Languages.nearest(reader);
        String pattern =
                Languages.text(language)
                        .getString(flaw.controlCode() != null ? "field.control" : "field.broken");
        Object[] args =
                flaw.controlCode() != null
                        ? new Object[] {flaw.controlCode(), flaw.position()}
                        : new Object[] {flaw.position()};
        return new MessageFormat(pattern, language).format(args);
    }
}
