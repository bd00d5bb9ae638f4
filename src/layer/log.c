/*
 * The layer's summary (XEOPT_LAYER_LOG, JSON) and report (XEOPT_LAYER_REPORT,
 * HTML), written once when the process exits (or the layer is unloaded).
 * docs/layer.md documents every field.  "%p" in either path is the
 * process id, for applications that start several processes.
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <xeopt/xeopt.h>

#include "layer_internal.h"

static char *expand_pid(const char *path)
{
   const char *at = strstr(path, "%p");
   char *out = NULL;
   if (!at)
      return strdup(path);
   if (asprintf(&out, "%.*s%ld%s", (int)(at - path), path, (long)getpid(), at + 2) < 0)
      return NULL;
   return out;
}

/* Writes text to path through a temporary file and a rename. */
static void write_atomically(const char *pattern, const char *text)
{
   char *path = expand_pid(pattern), *tmp = NULL;
   if (!path || asprintf(&tmp, "%s.tmp.%ld", path, (long)getpid()) < 0) {
      free(path);
      return;
   }
   FILE *f = fopen(tmp, "w");
   if (f) {
      bool ok = fputs(text, f) >= 0;
      if (fclose(f) == 0 && ok)
         rename(tmp, path);
      else
         unlink(tmp);
   }
   free(tmp);
   free(path);
}

static void add_string(cJSON *o, const char *name, const char *s)
{
   if (s)
      cJSON_AddStringToObject(o, name, s);
   else
      cJSON_AddNullToObject(o, name);
}

static cJSON *kernel_list(const char *names)
{
   cJSON *a = cJSON_CreateArray();
   char *copy = strdup(names ? names : ""), *save = NULL;
   for (char *k = strtok_r(copy, ";", &save); k; k = strtok_r(NULL, ";", &save))
      cJSON_AddItemToArray(a, cJSON_CreateString(k));
   free(copy);
   return a;
}

static cJSON *program_json(const xl_program *p)
{
   cJSON *o = cJSON_CreateObject();
   cJSON_AddNumberToObject(o, "id", p->id);
   cJSON_AddStringToObject(o, "origin", p->origin == XL_ORIGIN_IL ? "il" : "source");
   cJSON_AddStringToObject(o, "result", xl_result_name(p->result));
   add_string(o, "reason", p->reason);
   add_string(o, "device", p->device);
   add_string(o, "frontend", p->frontend);
   add_string(o, "options", p->options);
   add_string(o, "cache", p->cache);
   add_string(o, "hash", p->hash[0] ? p->hash : NULL);
   cJSON_AddNumberToObject(o, "input_bytes", (double)p->input_bytes);
   cJSON_AddNumberToObject(o, "seconds_in_xeopt", p->seconds_xeopt);
   cJSON_AddNumberToObject(o, "seconds_in_frontend", p->seconds_frontend);
   cJSON_AddNumberToObject(o, "seconds_in_driver_build", p->seconds_build);
   cJSON_AddItemToObject(o, "kernels", kernel_list(p->kernels));
   cJSON *remarks = p->remarks ? cJSON_Parse(p->remarks) : NULL;
   cJSON_AddItemToObject(o, "remarks", remarks ? remarks : cJSON_CreateArray());
   return o;
}

static cJSON *kernel_json(const xl_kernel_rec *k, unsigned long *launches, unsigned long *specialized)
{
   cJSON *o = cJSON_CreateObject(), *keys = cJSON_CreateArray();
   cJSON_AddNumberToObject(o, "program", k->program);
   cJSON_AddStringToObject(o, "kernel", k->name);
   for (const xl_key_rec *r = k->keys; r; r = r->next) {
      cJSON *e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "key", r->key);
      add_string(e, "promises", r->promises);
      cJSON_AddStringToObject(e, "state", r->state);
      add_string(e, "decided_by", r->decided_by);
      add_string(e, "reason", r->reason);
      cJSON_AddNumberToObject(e, "launches", (double)r->launches);
      cJSON_AddNumberToObject(e, "launches_specialized", (double)r->specialized);
      cJSON_AddNumberToObject(e, "base_samples", r->base_samples);
      cJSON_AddNumberToObject(e, "variant_samples", r->variant_samples);
      if (r->base_samples)
         cJSON_AddNumberToObject(e, "base_us", r->base_us);
      else
         cJSON_AddNullToObject(e, "base_us");
      if (r->variant_samples)
         cJSON_AddNumberToObject(e, "variant_us", r->variant_us);
      else
         cJSON_AddNullToObject(e, "variant_us");
      *launches += r->launches;
      *specialized += r->specialized;
      cJSON_AddItemToArray(keys, e);
   }
   cJSON_AddItemToObject(o, "keys", keys);
   return o;
}

static char *summary(const xl_core *c)
{
   unsigned count[4] = { 0 };
   double xeopt = 0, frontend = 0, build = 0;
   cJSON *list = cJSON_CreateArray();
   for (const xl_program *p = c->programs; p; p = p->next) {
      count[p->result]++;
      xeopt += p->seconds_xeopt;
      frontend += p->seconds_frontend;
      build += p->seconds_build;
      cJSON_AddItemToArray(list, program_json(p));
   }
   cJSON *o = cJSON_CreateObject();
   cJSON_AddStringToObject(o, "xeopt_version", xeopt_version());
   add_string(o, "options", c->options);
   add_string(o, "devices", c->devices ? c->devices : "gpu");
   add_string(o, "cache", c->cache);
   add_string(o, "error", c->error);
   cJSON_AddNumberToObject(o, "programs", c->nprograms);
   cJSON_AddNumberToObject(o, "programs_optimized", count[XL_OPTIMIZED]);
   cJSON_AddNumberToObject(o, "programs_unchanged", count[XL_UNCHANGED]);
   cJSON_AddNumberToObject(o, "programs_failed", count[XL_FAILED]);
   cJSON_AddNumberToObject(o, "programs_passed_through", count[XL_PASSED_THROUGH]);
   cJSON_AddNumberToObject(o, "cache_hits", c->cache_hits);
   cJSON_AddNumberToObject(o, "seconds_in_xeopt", xeopt);
   cJSON_AddNumberToObject(o, "seconds_in_frontend", frontend);
   cJSON_AddNumberToObject(o, "seconds_in_driver_build", build);
   cJSON_AddItemToObject(o, "program_list", list);
   unsigned long launches = 0, specialized = 0;
   cJSON *klist = cJSON_CreateArray();
   for (const xl_kernel_rec *k = c->kernels; k; k = k->next)
      if (k->keys)
         cJSON_AddItemToArray(klist, kernel_json(k, &launches, &specialized));
   static const char *const modes[] = { "0", "1", "always" };
   cJSON_AddStringToObject(o, "specialize", modes[c->specialize]);
   cJSON_AddNumberToObject(o, "launches", (double)launches);
   cJSON_AddNumberToObject(o, "launches_specialized", (double)specialized);
   cJSON_AddNumberToObject(o, "variants", (double)c->counts[XL_COUNT_VARIANT]);
   cJSON_AddNumberToObject(o, "variants_dropped_by_driver", (double)c->counts[XL_COUNT_DROPPED_BY_DRIVER]);
   cJSON_AddNumberToObject(o, "variants_kept", (double)c->counts[XL_COUNT_KEPT]);
   cJSON_AddNumberToObject(o, "variants_dropped_by_clock", (double)c->counts[XL_COUNT_DROPPED_BY_CLOCK]);
   cJSON_AddItemToObject(o, "kernel_list", klist);
   char *text = cJSON_Print(o);
   cJSON_Delete(o);
   return text;
}

static char *html_escape(const char *s)
{
   size_t n = 0;
   for (const char *p = s; *p; p++)
      n += *p == '<' || *p == '>' ? 4 : *p == '&' ? 5 : *p == '"' ? 6 : 1;
   char *out = malloc(n + 1), *o = out;
   for (; out && *s; s++) {
      const char *r = *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '&' ? "&amp;" : *s == '"' ? "&quot;" : NULL;
      if (r) {
         memcpy(o, r, strlen(r));
         o += strlen(r);
      } else
         *o++ = *s;
   }
   if (out)
      *o = 0;
   return out;
}

/* The body of one report page (between <body> and </body>). */
static const char *body_of(const char *page, size_t *len)
{
   const char *b = strstr(page, "<body>"), *e = strstr(page, "</body>");
   if (!b || !e || e < b)
      return NULL;
   b += 6;
   *len = (size_t)(e - b);
   return b;
}

/* One page: the first program's head (its style), then each program's
 * body in a section of its own. */
static char *report(const xl_core *c)
{
   size_t cap = 4096, n = 0;
   char *out = malloc(cap);
   const char *head_end = NULL, *first = NULL;
   for (const xl_program *p = c->programs; p && !first; p = p->next)
      if (p->report && (head_end = strstr(p->report, "<body>")))
         first = p->report;
   if (!out)
      return NULL;
   out[0] = 0;
#define APPEND(s, l)                                                   \
   do {                                                                \
      size_t l_ = (l);                                                 \
      while (n + l_ + 1 > cap) {                                       \
         char *g_ = realloc(out, cap *= 2);                            \
         if (!g_) { free(out); return NULL; }                          \
         out = g_;                                                     \
      }                                                                \
      memcpy(out + n, (s), l_);                                        \
      out[n += l_] = 0;                                                \
   } while (0)
   if (first)
      APPEND(first, (size_t)(head_end - first));
   else
      APPEND("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>xeopt layer</title></head>",
             strlen("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>xeopt layer</title></head>"));
   char line[256];
   int k = snprintf(line, sizeof line, "<body><h1>xeopt layer: %u program%s</h1>\n", c->nprograms,
                    c->nprograms == 1 ? "" : "s");
   APPEND(line, (size_t)k);
   bool any = false;
   for (const xl_kernel_rec *kr = c->kernels; kr && !any; kr = kr->next)
      any = kr->keys != NULL;
   if (any) {
      static const char head[] =
         "<section id=\"launches\"><h2>Launch variants</h2>\n<table><tr><th>program</th><th>kernel</th>"
         "<th>key</th><th>state</th><th>launches</th><th>specialized</th><th>base &micro;s</th>"
         "<th>variant &micro;s</th><th>why</th></tr>\n";
      APPEND(head, sizeof head - 1);
      for (const xl_kernel_rec *kr = c->kernels; kr; kr = kr->next)
         for (const xl_key_rec *r = kr->keys; r; r = r->next) {
            char *name = html_escape(kr->name), *key = html_escape(r->key),
                 *why = html_escape(r->reason ? r->reason : "");
            char *row = NULL;
            int len = asprintf(&row, "<tr><td>%u</td><td>%s</td><td>%s</td><td>%s%s%s</td><td>%lu</td>"
                               "<td>%lu</td><td>%.1f</td><td>%.1f</td><td>%s</td></tr>\n",
                               kr->program, name ? name : "", key ? key : "", r->state,
                               r->decided_by ? ", " : "", r->decided_by ? r->decided_by : "",
                               r->launches, r->specialized, r->base_samples ? r->base_us : 0.0,
                               r->variant_samples ? r->variant_us : 0.0, why ? why : "");
            free(name);
            free(key);
            free(why);
            if (len < 0)
               continue;
            APPEND(row, (size_t)len);
            free(row);
         }
      APPEND("</table></section>\n", 19);
   }
   for (const xl_program *p = c->programs; p; p = p->next) {
      k = snprintf(line, sizeof line, "<section id=\"program-%u\"><h2>program %u (%s, %s)</h2>\n",
                   p->id, p->id, p->origin == XL_ORIGIN_IL ? "IL" : "source",
                   xl_result_name(p->result));
      APPEND(line, (size_t)k);
      size_t len = 0;
      const char *body = p->report ? body_of(p->report, &len) : NULL;
      if (body)
         APPEND(body, len);
      APPEND("</section>\n", 11);
   }
   APPEND("</body></html>\n", 15);
#undef APPEND
   return out;
}

__attribute__((destructor)) static void write_log(void)
{
   xl_core *c = xl_core_peek();
   /* A thread that exit() left inside the core holds the lock: wait a
    * little for it, then write nothing rather than hang the exit. */
   struct timespec deadline;
   clock_gettime(CLOCK_REALTIME, &deadline);
   deadline.tv_sec += 2;
   if (!c || pthread_mutex_timedlock(&c->lock, &deadline) != 0)
      return;
   if (c->log_path) {
      char *text = summary(c);
      if (text)
         write_atomically(c->log_path, text);
      free(text);
   }
   if (c->report_path) {
      char *text = report(c);
      if (text)
         write_atomically(c->report_path, text);
      free(text);
   }
   pthread_mutex_unlock(&c->lock);
}
