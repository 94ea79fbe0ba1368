import { Settings } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { PermissionGatedButton } from '#web/components/permission-gated-button';
import { Button } from '#web/components/ui/button';
import { paths } from '#web/lib/paths';
import { AutoMessagesManager } from './auto-messages-manager';
import { BotConfigDialog } from './bot-config-dialog';

/** The dashboard's Chatbot tab (SPEC §2): 'Configurar Chatbot' and the automatic messages manager. */
export function ChatbotPanel() {
  const [configOpen, setConfigOpen] = useState(false);
  return (
    <div className="grid grid-cols-1 gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground">
          Status do bot, métricas, boas-vindas e integração com IA ficam na página do Chatbot.
        </p>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline" size="sm">
            <Link to={paths.chatbot}>Abrir página do Chatbot</Link>
          </Button>
          <PermissionGatedButton
            kind="bot"
            size="sm"
            icon={<Settings aria-hidden />}
            onClick={() => setConfigOpen(true)}
          >
            Configurar Chatbot
          </PermissionGatedButton>
        </div>
      </div>
      <AutoMessagesManager />
      <BotConfigDialog open={configOpen} onOpenChange={setConfigOpen} />
    </div>
  );
}
