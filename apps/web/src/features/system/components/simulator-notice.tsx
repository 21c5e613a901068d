import { shellWords } from '../../../i18n/shell-words';
import { useWords } from '../../../i18n/words';
import { useConfig } from '../api/system-api';

/** In simulator mode, says that no real money moves and where the virtual phone is. */
export function SimulatorNotice() {
  const config = useConfig();
  const words = useWords(shellWords);
  if (config?.mpesaEnv !== 'simulator' || !config.simulatorUrl) return null;
  return (
    <aside className="simulator-notice" aria-label={words.simulatorMode}>
      {words.simulatorBefore}{' '}
      <a href={config.simulatorUrl} target="_blank" rel="noopener noreferrer">
        {words.simulatorLink}
      </a>{' '}
      {words.simulatorAfter}
    </aside>
  );
}
