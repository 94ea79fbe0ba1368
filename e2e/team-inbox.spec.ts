import {
  expect,
  expectOk,
  joinAsMember,
  postJson,
  prepareSendingAccount,
  shot,
  signInCustomer,
  test,
} from './fixtures';

/**
 * The inbox as a team, in two browsers: an agent takes a conversation from 'Sem responsável',
 * answers it with a quick reply and resolves it; the owner sees who has it and who answered, and
 * leaves a note naming the agent, which the contact never gets.
 */
test('an agent takes a conversation from Sem responsável, answers with a quick reply and resolves it; the owner sees who answered', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signInCustomer(page, { prefix: 'caixa', name: 'Olga Dona', plan: 'professional' });
  await prepareSendingAccount(page, [{ name: 'Bruno Costa', phone: '(21) 99876-5533' }]);
  const phone = '5521998765533';
  await expectOk(
    postJson(page.request, '/api/quick-replies', { shortcut: 'ola', text: 'Olá, {{primeiro_nome}}! Já vejo isso.' }),
    'quick reply',
  );
  await expectOk(postJson(page.request, '/api/whatsapp/simulator/inbound', { from: phone, text: 'Oi' }), 'inbound');

  const {
    page: agent,
    context,
    errors,
  } = await joinAsMember(browser, page, {
    name: 'Ana Atendente',
    prefix: 'ana',
    role: 'agent',
    password: 'senha-da-ana',
  });
  await agent.goto('/conversations');
  const filters = agent.getByRole('tablist', { name: 'Filtrar conversas' });
  await filters.getByRole('tab', { name: 'Minhas' }).click();
  await expect(agent.getByText('Bruno Costa')).toHaveCount(0);
  await filters.getByRole('tab', { name: 'Sem responsável' }).click();
  await agent.getByText('Bruno Costa').first().click();
  await agent.getByRole('button', { name: 'Assumir como responsável' }).click();
  await expect(agent.getByTestId('conversation-assignee')).toHaveValue(/.+/);
  await filters.getByRole('tab', { name: 'Minhas' }).click();
  await expect(agent.getByTestId('conversation-item-assignee')).toHaveText('Com Ana Atendente');

  const box = agent.getByPlaceholder('Escreva uma mensagem...');
  await box.click();
  await box.pressSequentially('/ola');
  await expect(agent.getByRole('listbox').getByRole('option')).toHaveCount(1);
  await box.press('Enter');
  await expect(box).toHaveValue('Olá, Bruno! Já vejo isso.');
  await agent.getByRole('button', { name: 'Enviar' }).click();
  const answer = agent.getByTestId('conversation-message').filter({ hasText: 'Olá, Bruno! Já vejo isso.' });
  await expect(answer).toContainText('Ana Atendente');
  await agent.getByRole('button', { name: 'Resolver' }).click();
  await expect(agent.getByTestId('conversation-status')).toHaveText('Resolvida');
  // In the agent's own list the answer is theirs.
  await filters.getByRole('tab', { name: 'Resolvidas' }).click();
  await expect(agent.getByTestId('conversation-item')).toContainText('Você: Olá, Bruno! Já vejo isso.');
  await agent.screenshot(shot('team-inbox-agent-1366'));

  // The owner: who has it, who answered, and a note for the team only.
  await page.goto(`/conversations?phone=${phone}`);
  await page.getByRole('tablist', { name: 'Filtrar conversas' }).getByRole('tab', { name: 'Resolvidas' }).click();
  await expect(page.getByTestId('conversation-item-assignee')).toHaveText('Com Ana Atendente');
  // The list names who answered last.
  await expect(page.getByTestId('conversation-item')).toContainText('Ana: Olá, Bruno! Já vejo isso.');
  await expect(page.getByTestId('conversation-message').filter({ hasText: 'Olá, Bruno! Já vejo isso.' })).toContainText(
    'Ana Atendente',
  );
  await page.getByRole('tablist', { name: 'Escrever' }).getByRole('tab', { name: 'Nota interna' }).click();
  await page.getByTestId('composer-text').fill('@Ana ligue para ele amanhã');
  await page.getByRole('button', { name: 'Adicionar nota' }).click();
  const note = page.getByTestId('message-note').filter({ hasText: '@Ana ligue para ele amanhã' });
  await expect(note).toBeVisible();
  await expect(note.getByTestId('message-note-author')).toHaveText('Olga Dona');
  await page.screenshot(shot('team-inbox-owner-1366'));
  // The note never went to WhatsApp: the simulator's outbox has the answer only.
  const thread = (await (await page.request.get(`/api/conversations/${phone}`)).json()).messages as Array<{
    source: string;
  }>;
  expect(thread.map((m) => m.source)).toEqual(['contact', 'manual', 'note']);
  // The agent's bell has the mention.
  const bell = (await (await agent.request.get('/api/notifications')).json()).notifications as Array<{ kind: string }>;
  expect(bell.filter((n) => n.kind === 'conversation_mention')).toHaveLength(1);
  expect(errors).toEqual([]);
  await context.close();
});
