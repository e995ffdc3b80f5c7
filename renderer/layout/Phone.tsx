import { telLink } from '../../src/format/phone'

export function Phone({ tel, label, className }: { tel: string; label: string | null; className?: string }) {
  return (
    <div className={`phone ${className ?? ''}`}>
      <a className="phone__number" href={telLink(tel)}>
        {tel}
      </a>
      {label && <span className="phone__label">{label}</span>}
    </div>
  )
}
