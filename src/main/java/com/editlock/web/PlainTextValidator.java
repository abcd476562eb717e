package com.editlock.web;

import com.editlock.platform.PlainText;
import jakarta.faces.application.FacesMessage;
import jakarta.faces.component.UIComponent;
import jakarta.faces.context.FacesContext;
import jakarta.faces.validator.FacesValidator;
import jakarta.faces.validator.Validator;
import jakarta.faces.validator.ValidatorException;

/**
 * Runs on every input of every screen (a default validator): text with control characters or broken
 * characters is refused with a message next to the field, and the form's other input is kept.
 */
@FacesValidator(value = "editlock.plainText", isDefault = true)
public class PlainTextValidator implements Validator<Object> {

    @Override
    public void validate(FacesContext context, UIComponent component, Object value) {
        if (value instanceof String text) {
            String problem = PlainText.problem(text);
            if (problem != null) {
                String message = "This field " + problem;
                throw new ValidatorException(
                        new FacesMessage(FacesMessage.SEVERITY_ERROR, message, message));
            }
        }
    }
}
