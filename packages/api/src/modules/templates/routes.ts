import Router from '@koa/router';
import {
  analyseTemplate,
  messagingMessages,
  renderTemplate,
  sampleDataFor,
  type TemplateContent,
  TemplateInput,
  TemplateUpdate,
  TestSendInput,
} from '@wellrest/core';
import type { Knex } from 'knex';
import { z } from 'zod';
import { audit } from '../../audit/audit.js';
import { can } from '../../http/can.js';
import type { AppContext, AppContextExtension, AppState } from '../../http/context.js';
import { badRequest, notFound } from '../../http/errors.js';
import { validate } from '../../http/validate.js';
import { requestDelivery } from '../deliveries/service.js';
import { findTemplate, templateSummary, templateVersion, templateVersions, versionView } from './store.js';

// /templates: list, create, edit (each save a new version), preview with sample data, send a test.

const m = messagingMessages.templates;
const IdParams = z.object({ id: z.coerce.number().int().positive() });

/** Refuses a template the rules of core reject, field by field; nothing is written. */
function checked(content: TemplateContent) {
  const analysis = analyseTemplate(content);
  if (Object.keys(analysis.fields).length > 0) {
    const [first] = Object.values(analysis.fields);
    throw badRequest(first ?? messagingMessages.templates.saveFailed, { fields: analysis.fields });
  }
  return analysis;
}

function contentColumns(channel: TemplateContent['channel'], input: Partial<TemplateContent>) {
  return channel === 'email'
    ? { subject: input.subject ?? null, html: input.html || null, text: input.text || null, body: null }
    : { subject: null, html: null, text: null, body: input.body ?? null };
}

async function detail(db: Knex, id: number) {
  const template = await findTemplate(db, id);
  if (!template) throw notFound(m.notFound);
  const versions = await templateVersions(db, id);
  const current = versions.find((v) => v.version === template.current_version);
  return {
    ...templateSummary(template),
    content: current ? versionView(current) : null,
    versions: versions.map(versionView),
  };
}

async function list(ctx: AppContext): Promise<void> {
  const rows = await ctx.services.db
    .knex('message_templates')
    .orderBy([{ column: 'category' }, { column: 'name' }]);
  ctx.body = { items: rows.map(templateSummary) };
}

async function read(ctx: AppContext): Promise<void> {
  const { id } = ctx.state.input as z.infer<typeof IdParams>;
  ctx.body = await detail(ctx.services.db.knex, id);
}

async function create(ctx: AppContext): Promise<void> {
  const input = ctx.state.input as TemplateInput;
  const analysis = checked(input);
  const id = await ctx.services.db.knex.transaction(async (trx) => {
    const [row] = await trx('message_templates')
      .insert({
        name: input.name,
        channel: input.channel,
        category: input.category,
        trigger: input.trigger,
        active: input.active,
        current_version: 1,
        contains_phi: analysis.containsPhi,
        created_by: ctx.state.user?.id ?? null,
      })
      .returning('id');
    const templateId = (row as { id: number }).id;
    await trx('message_template_versions').insert({
      template_id: templateId,
      version: 1,
      ...contentColumns(input.channel, input),
      variables: JSON.stringify(analysis.variables),
      contains_phi: analysis.containsPhi,
      created_by: ctx.state.user?.id ?? null,
    });
    await audit(trx, ctx, {
      action: 'template.create',
      outcome: 'success',
      entityType: 'template',
      entityId: templateId,
    });
    return templateId;
  });
  ctx.status = 201;
  ctx.body = await detail(ctx.services.db.knex, id);
}

async function update(ctx: AppContext): Promise<void> {
  const { id } = IdParams.parse((ctx as AppContext & { params: unknown }).params);
  const input = ctx.state.input as TemplateUpdate;
  await ctx.services.db.knex.transaction(async (trx) => {
    // Locked, so two saves at once make two versions one after the other.
    const template = await trx('message_templates').where({ id }).forUpdate().first();
    if (!template) throw notFound(m.notFound);
    const current = await templateVersion(trx, id, template.current_version);
    const contentKeys = ['subject', 'html', 'text', 'body'] as const;
    const hasContent = contentKeys.some((key) => input[key] !== undefined);
    let version = template.current_version;
    let containsPhi = template.contains_phi;
    if (hasContent) {
      // A new version: the parts given over the current ones.
      const merged: TemplateContent = {
        channel: template.channel,
        trigger: template.trigger,
        subject: input.subject ?? current?.subject ?? undefined,
        html: input.html ?? current?.html ?? undefined,
        text: input.text ?? current?.text ?? undefined,
        body: input.body ?? current?.body ?? undefined,
      };
      const analysis = checked(merged);
      version += 1;
      containsPhi = analysis.containsPhi;
      await trx('message_template_versions').insert({
        template_id: id,
        version,
        ...contentColumns(template.channel, merged),
        variables: JSON.stringify(analysis.variables),
        contains_phi: analysis.containsPhi,
        created_by: ctx.state.user?.id ?? null,
      });
    }
    await trx('message_templates')
      .where({ id })
      .update({
        current_version: version,
        contains_phi: containsPhi,
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.category !== undefined ? { category: input.category } : {}),
        ...(input.active !== undefined ? { active: input.active } : {}),
        updated_at: trx.fn.now(),
      });
    await audit(trx, ctx, {
      action: 'template.update',
      outcome: 'success',
      entityType: 'template',
      entityId: id,
      details: { version },
    });
  });
  ctx.body = await detail(ctx.services.db.knex, id);
}

async function sendTest(ctx: AppContext): Promise<void> {
  const { id } = IdParams.parse((ctx as AppContext & { params: unknown }).params);
  const { to } = ctx.state.input as z.infer<typeof TestSendInput>;
  const { db, outbox } = ctx.services;
  const delivery = await db.knex.transaction(async (trx) => {
    const template = await findTemplate(trx, id);
    if (!template) throw notFound(m.notFound);
    const recipientOk =
      template.channel === 'email' ? z.email().safeParse(to).success : /^\+?[0-9 ()-]{7,20}$/.test(to);
    if (!recipientOk)
      throw badRequest(messagingMessages.deliveries.invalidRecipient, {
        fields: { to: messagingMessages.deliveries.invalidRecipient },
      });
    const version = await templateVersion(trx, id, template.current_version);
    if (!version) throw notFound(m.notFound);
    const content = renderTemplate(
      {
        channel: template.channel,
        trigger: template.trigger,
        subject: version.subject ?? undefined,
        html: version.html ?? undefined,
        text: version.text ?? undefined,
        body: version.body ?? undefined,
      },
      sampleDataFor(template.trigger),
    );
    const queued = await requestDelivery(trx, {
      channel: template.channel,
      recipient: to,
      content,
      templateId: id,
      templateVersion: template.current_version,
      containsPhi: template.contains_phi,
      createdBy: ctx.state.user?.id ?? null,
    });
    await audit(trx, ctx, {
      action: 'template.test_send',
      outcome: 'success',
      entityType: 'template',
      entityId: id,
      details: { delivery: queued.id },
    });
    return queued;
  });
  outbox.poke();
  ctx.status = 202;
  ctx.body = { deliveryId: delivery.id, status: 'queued' };
}

export function templateRoutes(): Router<AppState, AppContextExtension> {
  const router = new Router<AppState, AppContextExtension>();
  router.get('/api/templates', can('read', 'Template'), list);
  router.post('/api/templates', can('create', 'Template'), validate(TemplateInput), create);
  router.get('/api/templates/:id', can('read', 'Template'), validate(IdParams, 'params'), read);
  router.put('/api/templates/:id', can('update', 'Template'), validate(TemplateUpdate), update);
  router.post('/api/templates/:id/test', can('update', 'Template'), validate(TestSendInput), sendTest);
  return router;
}
