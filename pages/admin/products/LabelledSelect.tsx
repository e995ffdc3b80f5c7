// A select with its visible label, named by `aria-label` too (a label wrapping a select would take
// the chosen option into its accessible name): «Товары»'s filters and actions.
export function LabelledSelect({
  label,
  value,
  options,
  empty,
  onChange,
}: {
  label: string
  value: string
  /** value → text, in order */
  options: Readonly<Record<string, string>> | readonly (readonly [string, string])[]
  /** The option for «no choice» (value ''), when there is one */
  empty?: string
  onChange: (value: string) => void
}) {
  const entries = Array.isArray(options) ? options : Object.entries(options)
  return (
    <label className="products__field">
      <span>{label}</span>
      <select aria-label={label} className="field__control" value={value} onChange={(e) => onChange(e.target.value)}>
        {empty !== undefined && <option value="">{empty}</option>}
        {entries.map(([key, text]) => (
          <option key={key} value={key}>
            {text}
          </option>
        ))}
      </select>
    </label>
  )
}
