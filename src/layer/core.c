/*
 * The layer's core (core.h): configuration, the per-program records, xeopt
 * and the front end through the cache.  The log and the report are
 * written from the records at exit (log.c).
 */
#define _GNU_SOURCE
#include "core.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <xeopt/xeopt.h>

#include "cache.h"
#include "frontend.h"
#include "layer_internal.h"

static xl_core the_core;
static pthread_once_t once = PTHREAD_ONCE_INIT;

double xl_now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *env_dup(const char *name)
{
   const char *v = getenv(name);
   return v && *v ? strdup(v) : NULL;
}

/* XEOPT_LAYER_CACHE, else $XDG_CACHE_HOME/xeopt, else ~/.cache/xeopt;
 * "off" means none. */
static char *cache_dir(void)
{
   const char *v = getenv("XEOPT_LAYER_CACHE");
   char *dir = NULL;
   if (v && *v)
      return strcmp(v, "off") ? strdup(v) : NULL;
   if ((v = getenv("XDG_CACHE_HOME")) && *v) {
      if (asprintf(&dir, "%s/xeopt", v) < 0)
         dir = NULL;
   } else if ((v = getenv("HOME")) && *v) {
      if (asprintf(&dir, "%s/.cache/xeopt", v) < 0)
         dir = NULL;
   }
   return dir;
}

/* Sets each blank-separated word of `words` on o; the first refused one's
 * message in *error. */
static bool set_options(xeopt_options *o, const char *words, char **error)
{
   char *copy = strdup(words ? words : ""), *save = NULL;
   bool ok = copy != NULL;
   for (char *w = strtok_r(copy, " \t", &save); ok && w; w = strtok_r(NULL, " \t", &save))
      ok = xeopt_options_set(o, w, error) == XEOPT_OK;
   free(copy);
   return ok;
}

static void configure(void)
{
   xl_core *c = &the_core;
   pthread_mutex_init(&c->lock, NULL);
   c->options = env_dup("XEOPT_LAYER_OPTIONS");
   if (!c->options)
      c->options = strdup("-O2");
   c->devices = env_dup("XEOPT_LAYER_DEVICES");
   c->cache = cache_dir();
   c->log_path = env_dup("XEOPT_LAYER_LOG");
   c->report_path = env_dup("XEOPT_LAYER_REPORT");
   c->frontend = env_dup("XEOPT_LAYER_FRONTEND");
   c->fault = env_dup("XEOPT_LAYER_TEST_FAULT");
   const char *verbose = getenv("XEOPT_LAYER_VERBOSE");
   c->verbose = verbose && *verbose && strcmp(verbose, "0");
   const char *spec = getenv("XEOPT_LAYER_SPECIALIZE");
   c->specialize = XL_SPEC_MEASURE;
   if (spec && *spec) {
      if (!strcmp(spec, "0"))
         c->specialize = XL_SPEC_OFF;
      else if (!strcmp(spec, "always"))
         c->specialize = XL_SPEC_ALWAYS;
      else if (strcmp(spec, "1") && asprintf(&c->error, "XEOPT_LAYER_SPECIALIZE=%s: expected 0, 1 or always", spec) < 0)
         c->error = NULL;
   }
   const char *promises = getenv("XEOPT_LAYER_PROMISES");
   c->promises_padded = promises && !strcmp(promises, "padded");
   const char *samples = getenv("XEOPT_LAYER_SAMPLES");
   c->samples = samples && atoi(samples) >= 3 && atoi(samples) <= 1000 ? (unsigned)atoi(samples) : 10;
   c->user_target = strstr(c->options, "--target") || strstr(c->options, "--isa-check");
   c->act_gpu = true;
   c->act_other = c->devices && !strcmp(c->devices, "all");
   if (c->error)
      c->act_gpu = c->act_other = false;
   if (c->devices && strcmp(c->devices, "all") && strcmp(c->devices, "gpu")) {
      free(c->error);
      asprintf(&c->error, "XEOPT_LAYER_DEVICES=%s: expected gpu or all", c->devices);
      c->act_gpu = c->act_other = false;
   }
   char *error = NULL;
   xeopt_options *o = xeopt_options_create();
   if (!o || !set_options(o, c->options, &error)) {
      if (!c->error && asprintf(&c->error, "XEOPT_LAYER_OPTIONS=%s: %s", c->options,
                                error ? error : "out of memory") < 0)
         c->error = NULL;
      c->act_gpu = c->act_other = false;
   }
   free(error);
   xeopt_options_destroy(o);
   if (c->error && c->verbose)
      fprintf(stderr, "xeopt layer: %s: acting on no program\n", c->error);
   c->ready = true;
}

xl_core *xl_core_get(void)
{
   pthread_once(&once, configure);
   return &the_core;
}

xl_core *xl_core_peek(void)
{
   return the_core.ready ? &the_core : NULL;
}

bool xl_core_acts_on(const xl_core *core, bool is_gpu)
{
   return is_gpu ? core->act_gpu : core->act_other;
}

bool xl_core_fault(const xl_core *core, const char *name)
{
   return core->fault && !strcmp(core->fault, name);
}

xl_program *xl_program_new(xl_core *core, xl_origin origin)
{
   xl_program *p = calloc(1, sizeof *p);
   if (!p)
      return NULL;
   p->origin = origin;
   p->result = XL_PASSED_THROUGH;
   pthread_mutex_lock(&core->lock);
   p->id = ++core->nprograms;
   *(core->tail ? &core->tail->next : &core->programs) = p;
   core->tail = p;
   pthread_mutex_unlock(&core->lock);
   return p;
}

static void set_text(char **field, const char *text)
{
   free(*field);
   *field = text ? strdup(text) : NULL;
}

void xl_program_set_result(xl_core *core, xl_program *p, xl_result result, const char *reason)
{
   if (!p)
      return;
   pthread_mutex_lock(&core->lock);
   p->result = result;
   set_text(&p->reason, reason);
   pthread_mutex_unlock(&core->lock);
   if (core->verbose)
      fprintf(stderr, "xeopt layer: program %u: %s%s%s\n", p->id, xl_result_name(result),
              reason ? ": " : "", reason ? reason : "");
}

xl_result xl_program_result(xl_core *core, const xl_program *p)
{
   pthread_mutex_lock(&core->lock);
   xl_result r = p ? p->result : XL_PASSED_THROUGH;
   pthread_mutex_unlock(&core->lock);
   return r;
}

void xl_program_set_kernels(xl_core *core, xl_program *p, const char *list)
{
   if (!p)
      return;
   pthread_mutex_lock(&core->lock);
   set_text(&p->kernels, list);
   pthread_mutex_unlock(&core->lock);
}

void xl_program_add_build_seconds(xl_core *core, xl_program *p, double seconds)
{
   if (!p)
      return;
   pthread_mutex_lock(&core->lock);
   p->seconds_build += seconds;
   pthread_mutex_unlock(&core->lock);
}

const char *xl_result_name(xl_result r)
{
   switch (r) {
   case XL_OPTIMIZED: return "optimized";
   case XL_UNCHANGED: return "unchanged";
   case XL_FAILED: return "failed";
   default: return "passed_through";
   }
}

/* ---- the front end through the cache ------------------------------------- */

void *xl_compile_source(xl_core *core, xl_program *p, const xl_device *dev, const char *source,
                        const char *options, size_t *out_size)
{
   xl_frontend_request rq = { .source = source, .options = options ? options : "",
                              .target = dev->target, .extensions = dev->extensions,
                              .forced = core->frontend };
   if (xl_core_fault(core, "frontend"))
      rq.options = "-xeopt-layer-test-fault";
   const char *fe = xl_frontend_pick(&rq);
   if (!fe) {
      xl_program_set_result(core, p, XL_PASSED_THROUGH, "no front end for this device");
      return NULL;
   }
   const char *exts = rq.extensions ? rq.extensions : "";
   const char *tgt = rq.target ? rq.target : "";
   const void *parts[] = { "xeopt-layer front end 1", fe, tgt, exts, rq.options, source };
   size_t lens[] = { 23, strlen(fe), strlen(tgt), strlen(exts), strlen(rq.options), strlen(source) };
   xl_key key = xl_key_of(parts, lens, 6);
   xl_entry e;
   double t0 = xl_now();
   void *spv = NULL;
   char *why = NULL;
   bool hit = core->cache && xl_cache_read(core->cache, key, &e);
   if (hit) {
      spv = e.status == XL_ENTRY_CHANGED ? e.bytes : NULL;
      *out_size = e.size;
      why = spv ? NULL : e.text;
      if (spv)
         free(e.text);
      else
         free(e.bytes);
   } else {
      spv = xl_frontend_compile(&rq, out_size, &why);
      e = (xl_entry){ .status = spv ? XL_ENTRY_CHANGED : XL_ENTRY_FAILED, .bytes = spv,
                      .size = spv ? *out_size : 0, .text = why };
      if (core->cache && !core->fault)
         xl_cache_write(core->cache, key, &e);
   }
   pthread_mutex_lock(&core->lock);
   p->seconds_frontend += xl_now() - t0;
   set_text(&p->frontend, fe);
   pthread_mutex_unlock(&core->lock);
   if (!spv)
      xl_program_set_result(core, p, XL_PASSED_THROUGH, why ? why : "front end failed");
   free(why);
   return spv;
}

/* ---- xeopt through the cache --------------------------------------------- */

/* The options for this device: the configured ones, with the device's
 * --target where the driver named a model the cost model knows and the
 * user chose none. */
static char *device_options(const xl_core *core, const xl_device *dev)
{
   char *s = NULL;
   if (dev->target && !core->user_target) {
      if (asprintf(&s, "%s --target=%s", core->options, dev->target) < 0)
         s = NULL;
      return s;
   }
   return strdup(core->options);
}

/* Runs xeopt; fills e (status, output, remarks or the error). */
static void run_xeopt(xl_core *core, const char *options, const void *il, size_t size,
                      xl_entry *e, char **report, const char *title)
{
   memset(e, 0, sizeof *e);
   e->status = XL_ENTRY_FAILED;
   char *error = NULL;
   xeopt_options *o = xeopt_options_create();
   if (!o || !set_options(o, options, &error)) {
      e->text = error ? error : strdup("out of memory");
      xeopt_options_destroy(o);
      return;
   }
   /* The fault hook gives xeopt a truncated module: a real failure. */
   xeopt_result *r = xeopt_optimize(o, il, xl_core_fault(core, "xeopt") ? 3 : size);
   xeopt_options_destroy(o);
   if (!r) {
      e->text = strdup("xeopt: out of memory");
      return;
   }
   if (xeopt_result_status(r) != XEOPT_OK) {
      const char *msg = xeopt_result_error(r);
      if (asprintf(&e->text, "xeopt: %s", msg ? msg : "failed") < 0)
         e->text = NULL;
      xeopt_result_destroy(r);
      return;
   }
   size_t nw = 0;
   const uint32_t *w = xeopt_result_words(r, &nw);
   e->text = strdup(xeopt_result_remarks_json(r));
   if (nw * 4 == size && !memcmp(w, il, size)) {
      e->status = XL_ENTRY_UNCHANGED;
   } else if ((e->bytes = malloc(nw * 4))) {
      memcpy(e->bytes, w, nw * 4);
      e->size = nw * 4;
      e->status = XL_ENTRY_CHANGED;
   }
   if (report)
      *report = xeopt_result_report_html(r, il, size, title);
   xeopt_result_destroy(r);
}

void *xl_optimize(xl_core *core, xl_program *p, const xl_device *dev, const void *il, size_t size,
                  size_t *out_size)
{
   char *options = device_options(core, dev);
   if (!options) {
      xl_program_set_result(core, p, XL_FAILED, "out of memory");
      return NULL;
   }
   const char *version = xeopt_version();
   /* 2: the entry's remarks carry their decisions as data (xeopt.h),
    * which unused_specializations reads; an entry of 1 has none. */
   const void *parts[] = { "xeopt-layer optimize 2", version, options, il };
   size_t lens[] = { 22, strlen(version), strlen(options), size };
   xl_key key = xl_key_of(parts, lens, 4);
   char hex[33];
   xl_key_hex(key, hex);
   xl_entry e;
   char *report = NULL, title[64];
   snprintf(title, sizeof title, "program %u", p->id);
   double t0 = xl_now();
   /* The report needs xeopt's result: with it asked for, every program runs. */
   bool hit = core->cache && !core->report_path && !core->fault && xl_cache_read(core->cache, key, &e);
   if (!hit) {
      run_xeopt(core, options, il, size, &e, core->report_path ? &report : NULL, title);
      if (core->cache && !core->fault)
         xl_cache_write(core->cache, key, &e);
   }
   double seconds = xl_now() - t0;
   pthread_mutex_lock(&core->lock);
   p->cache = core->cache ? (hit ? "hit" : "miss") : "off";
   core->cache_hits += hit;
   p->seconds_xeopt += seconds;
   p->input_bytes = size;
   memcpy(p->hash, hex, sizeof hex);
   set_text(&p->options, options);
   set_text(&p->device, dev->name);
   if (e.status != XL_ENTRY_FAILED) {
      free(p->remarks);
      p->remarks = e.text;
      e.text = NULL;
   }
   free(p->report);
   p->report = report;
   pthread_mutex_unlock(&core->lock);
   free(options);
   if (e.status == XL_ENTRY_FAILED)
      xl_program_set_result(core, p, XL_FAILED, e.text ? e.text : "xeopt failed");
   else if (e.status == XL_ENTRY_UNCHANGED)
      xl_program_set_result(core, p, XL_UNCHANGED, NULL);
   free(e.text);
   if (e.status != XL_ENTRY_CHANGED) {
      free(e.bytes);
      return NULL;
   }
   /* The fault hook hands the driver a module with a broken magic number. */
   if (xl_core_fault(core, "driver"))
      ((unsigned char *)e.bytes)[0] ^= 0xff;
   *out_size = e.size;
   return e.bytes;
}

/* ---- variants ------------------------------------------------------------ */

xl_spec_mode xl_core_specialize(const xl_core *core)
{
   return core->error ? XL_SPEC_OFF : core->specialize;
}

bool xl_core_promises_padded(const xl_core *core)
{
   return core->promises_padded;
}

unsigned xl_core_samples(const xl_core *core)
{
   return core->samples;
}

void *xl_optimize_variant(xl_core *core, const xl_device *dev, const void *il, size_t size,
                          const char *promises, size_t *out_size, char **remarks, bool *failed,
                          char **why)
{
   *remarks = *why = NULL;
   *failed = true;
   char *base = device_options(core, dev), *options = NULL;
   if (!base || asprintf(&options, "%s %s", base, promises) < 0) {
      free(base);
      *why = strdup("out of memory");
      return NULL;
   }
   free(base);
   const char *version = xeopt_version();
   /* 2: the entry's remarks carry their decisions as data (xeopt.h),
    * which unused_specializations reads; an entry of 1 has none. */
   const void *parts[] = { "xeopt-layer optimize 2", version, options, il };
   size_t lens[] = { 22, strlen(version), strlen(options), size };
   xl_key key = xl_key_of(parts, lens, 4);
   xl_entry e;
   bool faulty = xl_core_fault(core, "variant-xeopt");
   bool hit = core->cache && !faulty && xl_cache_read(core->cache, key, &e);
   if (!hit) {
      /* the fault hook: xeopt refuses the promises */
      run_xeopt(core, faulty ? "--no-such-option" : options, il, size, &e, NULL, NULL);
      if (core->cache && !core->fault)
         xl_cache_write(core->cache, key, &e);
   }
   free(options);
   *failed = e.status == XL_ENTRY_FAILED;
   if (*failed)
      *why = e.text;
   else
      *remarks = e.text;
   if (e.status != XL_ENTRY_CHANGED) {
      free(e.bytes);
      return NULL;
   }
   *out_size = e.size;
   return e.bytes;
}

static xl_key decision_key(const char *identity)
{
   const void *parts[] = { "xeopt-layer decision 1", identity };
   size_t lens[] = { 22, strlen(identity) };
   return xl_key_of(parts, lens, 2);
}

char *xl_decision_read(xl_core *core, const char *identity)
{
   xl_entry e;
   if (!core->cache || !xl_cache_read(core->cache, decision_key(identity), &e))
      return NULL;
   free(e.bytes);
   return e.text;
}

void xl_decision_write(xl_core *core, const char *identity, const char *decision)
{
   xl_entry e = { .status = XL_ENTRY_UNCHANGED, .text = (char *)decision };
   if (core->cache)
      xl_cache_write(core->cache, decision_key(identity), &e);
}

void xl_core_lock(xl_core *core)
{
   pthread_mutex_lock(&core->lock);
}

void xl_core_unlock(xl_core *core)
{
   pthread_mutex_unlock(&core->lock);
}

xl_kernel_rec *xl_kernel_rec_new(xl_core *core, const xl_program *p, const char *name)
{
   xl_kernel_rec *k = calloc(1, sizeof *k);
   if (!k || !(k->name = strdup(name ? name : ""))) {
      free(k);
      return NULL;
   }
   k->program = p ? p->id : 0;
   pthread_mutex_lock(&core->lock);
   *(core->kernels_tail ? &core->kernels_tail->next : &core->kernels) = k;
   core->kernels_tail = k;
   pthread_mutex_unlock(&core->lock);
   return k;
}

xl_key_rec *xl_key_rec_get(xl_core *core, xl_kernel_rec *k, const char *key)
{
   pthread_mutex_lock(&core->lock);
   xl_key_rec **at = &k->keys;
   while (*at && strcmp((*at)->key, key))
      at = &(*at)->next;
   if (!*at && (*at = calloc(1, sizeof **at))) {
      if (!((*at)->key = strdup(key))) {
         free(*at);
         *at = NULL;
      } else {
         (*at)->state = "base";
         k->nkeys++;
      }
   }
   xl_key_rec *r = *at;
   pthread_mutex_unlock(&core->lock);
   return r;
}

void xl_program_hash(xl_core *core, const xl_program *p, char out[33])
{
   pthread_mutex_lock(&core->lock);
   memcpy(out, p->hash, 33);
   pthread_mutex_unlock(&core->lock);
}

void xl_core_count(xl_core *core, int what)
{
   pthread_mutex_lock(&core->lock);
   core->counts[what]++;
   pthread_mutex_unlock(&core->lock);
}
