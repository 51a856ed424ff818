/** A labelled group of radio cards, each a title and a hint (the export's formats, the import's sections). */
export function ChoiceCards<T extends string>({
  legend,
  name,
  options,
  value,
  onChange,
  title,
  hint,
}: {
  legend: string;
  name: string;
  options: readonly T[];
  value: NoInfer<T>;
  onChange(value: NoInfer<T>): void;
  title(option: T): string;
  hint(option: T): string;
}) {
  return (
    <fieldset className="export-formats">
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option} className="export-format">
          <input type="radio" name={name} value={option} checked={value === option} onChange={() => onChange(option)} />
          <span>
            <strong>{title(option)}</strong>
            <small>{hint(option)}</small>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
