// https://vike.dev/error-page — 404 shows the heading and text of the contract; other statuses
// (a failed data load, 410, 500…) show only the icon with their code.
import { usePageContext } from 'vike-react/usePageContext'
import errorIcon from './error-icon.svg'
import './error.css'

export function Page() {
  const { is404, abortStatusCode, site } = usePageContext()
  const status = is404 ? 404 : typeof abortStatusCode === 'number' ? abortStatusCode : 500
  const home = site?.url ?? '/'
  // The catalogue: the first section of the site's menu.
  const catalogue = site?.menu[0]
  return (
    <div className="container error-view" data-status={status}>
      <img className="error-view__icon" src={errorIcon} alt={`Ошибка ${status}`} width={120} height={120} />
      {status === 404 ? (
        <>
          <h1>Страницы не существует:(</h1>
          <p>Возможно, когда-то она была, но сейчас ее нет.</p>
          <nav className="error-view__links" aria-label="Куда перейти">
            <a className="button button--accent" href={home}>
              На главную
            </a>
            {catalogue && (
              <a className="button" href={catalogue.url}>
                {catalogue.title}
              </a>
            )}
          </nav>
        </>
      ) : (
        <p className="error-view__code" aria-hidden="true">
          {status}
        </p>
      )}
    </div>
  )
}
