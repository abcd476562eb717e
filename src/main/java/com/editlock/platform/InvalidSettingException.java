package com.editlock.platform;

/** A setting has a value outside its accepted range; Editlock does not start with it. */
public class InvalidSettingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InvalidSettingException(String message) {
        super("Editlock cannot start: " + message);
    }
}
