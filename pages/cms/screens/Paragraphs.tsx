/** Record text: paragraphs separated by blank lines, rendered as plain text (never HTML). */
export function Paragraphs({ text, className }: { text: string | null; className?: string }) {
  if (!text) return null
  return (
    <div className={className ?? 'prose'}>
      {text.split(/\n\s*\n/).map((p, i) => (
        <p key={i}>{p.trim()}</p>
      ))}
    </div>
  )
}
