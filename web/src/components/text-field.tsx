// Form fields: a label with what sits at its right (a counter such as x/30, a note such as 'Optional',
// or a link), a labelled text input with an optional hint or message under it, and a password variant
// with a show/hide toggle. Shared by every form so they share one look, one focus ring and one error style.
import { Eye, EyeOff } from "lucide-react";
import { type InputHTMLAttributes, type ReactNode, type Ref, useId, useState } from "react";
import { useTranslation } from "react-i18next";

export const inputClasses =
  "h-12 w-full min-w-0 rounded-xl border border-line bg-canvas px-4 text-base text-ink shadow-inner " +
  "transition duration-200 outline-none placeholder:text-ink-muted/80 hover:border-ink-muted/50 " +
  "focus:border-accent-500 focus-visible:outline-2 focus-visible:outline-offset-2 aria-invalid:border-danger";

export const textareaClasses =
  "w-full min-w-0 resize-y rounded-xl border border-line bg-canvas px-4 py-3 text-base leading-6 text-ink shadow-inner " +
  "transition duration-200 outline-none placeholder:text-ink-muted/80 hover:border-ink-muted/50 " +
  "focus:border-accent-500 focus-visible:outline-2 focus-visible:outline-offset-2";

interface FieldLabelProps {
  htmlFor: string;
  children: ReactNode;
  /** A character counter, e.g. "12/30". */
  counter?: string;
  /** A short note (e.g. "Optional") or an element such as a "Forgot password?" link. */
  aside?: ReactNode;
}

export function FieldLabel({ htmlFor, children, counter, aside }: FieldLabelProps) {
  return (
    <div className="flex items-baseline justify-between gap-4">
      <label htmlFor={htmlFor} className="text-sm font-medium text-ink">
        {children}
      </label>
      {counter ? (
        <span className="text-xs font-medium text-ink-muted tabular-nums">{counter}</span>
      ) : typeof aside === "string" ? (
        <span className="text-xs font-medium text-ink-muted">{aside}</span>
      ) : (
        aside
      )}
    </div>
  );
}

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value" | "id"> {
  label: string;
  ref?: Ref<HTMLInputElement>;
  value: string;
  onValueChange: (value: string) => void;
  /** Shown under the input and read with it (aria-describedby). */
  hint?: ReactNode;
  /** An element beside the label, e.g. a "Forgot password?" link. */
  labelAside?: ReactNode;
  /** An element inside the input's right edge, e.g. a show/hide toggle. */
  trailing?: ReactNode;
}

export function TextField({
  label,
  value,
  onValueChange,
  hint,
  labelAside,
  trailing,
  className,
  ref,
  ...inputProps
}: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className={className}>
      <FieldLabel htmlFor={id} aside={labelAside}>
        {label}
      </FieldLabel>
      <div className="relative mt-2">
        <input
          ref={ref}
          id={id}
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
          aria-describedby={hint ? hintId : undefined}
          className={`${inputClasses} ${trailing ? "pe-12" : ""}`}
          {...inputProps}
        />
        {trailing ? <div className="absolute inset-y-0 inset-e-1 flex items-center">{trailing}</div> : null}
      </div>
      {hint ? (
        <div id={hintId} className="mt-2 min-h-5 text-sm">
          {hint}
        </div>
      ) : null}
    </div>
  );
}

type PasswordFieldProps = Omit<TextFieldProps, "type" | "trailing">;

export function PasswordField(props: PasswordFieldProps) {
  const { t } = useTranslation("common");
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? "text" : "password"}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      trailing={
        <button
          type="button"
          className="grid size-10 place-items-center rounded-lg text-ink-muted transition duration-200 hover:text-ink"
          // Not "Show <label>": the field's own label must find only the field.
          aria-label={visible ? t("textField.hidePassword") : t("textField.showPassword")}
          aria-pressed={visible}
          onClick={() => setVisible((value) => !value)}
        >
          {visible ? (
            <EyeOff aria-hidden="true" className="size-5" />
          ) : (
            <Eye aria-hidden="true" className="size-5" />
          )}
        </button>
      }
    />
  );
}
