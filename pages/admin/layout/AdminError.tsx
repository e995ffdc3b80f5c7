/** An action's or a load's Russian failure, announced at once; nothing while there is none. */
export function AdminError({ message }: { message: string | null | undefined }) {
  if (!message) return null
  return (
    <p className="admin-error" role="alert">
      {message}
    </p>
  )
}
