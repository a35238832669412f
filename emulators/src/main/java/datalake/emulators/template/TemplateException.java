package datalake.emulators.template;

/**
 * A template that cannot be transformed or resolved: the SAM transform rejected it, a parameter breaks
 * its constraints, a rule's assertion fails, or it uses what the local resolver does not know. The
 * message says which, in one sentence, as CloudFormation would refuse the stack.
 */
public final class TemplateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TemplateException(String message) {
        super(message);
    }

    public TemplateException(String message, Throwable cause) {
        super(message, cause);
    }
}
