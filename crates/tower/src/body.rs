//! The response body the guarded service answers with: the layer's own answer, or the provider's body passed
//! through as it comes while the call reads each chunk.

use crate::events::Emitter;
use crate::BoxError;
use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use llm_preflight::Call;
use pin_project_lite::pin_project;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

/// A call whose response is being passed through: fed each chunk, ended (settled, or failed) when the body ends,
/// and given back as abandoned when the body is dropped before its end (the client went away).
pub(crate) struct Watch {
    call: Call,
    events: Emitter,
    over: bool,
}

impl Watch {
    pub(crate) fn new(call: Call, events: Emitter) -> Box<Watch> {
        Box::new(Watch {
            call,
            events,
            over: false,
        })
    }

    fn chunk(&mut self, data: &[u8]) {
        let now = self.events.now_ms();
        self.call.on_body(data, now);
    }

    fn end(&mut self) {
        let now = self.events.now_ms();
        self.call.on_end(now, self.events.random());
        self.call.poll(now);
        self.over = true;
        self.events.emit(&mut self.call);
    }

    fn failed(&mut self) {
        let now = self.events.now_ms();
        self.call.on_transport_error(now);
        self.call.poll(now);
        self.over = true;
        self.events.emit(&mut self.call);
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        if !self.over {
            let now = self.events.now_ms();
            self.call.on_client_gone(now);
            self.events.emit(&mut self.call);
        }
    }
}

pin_project! {
    /// The guarded service's response body: the layer's own answer (413, 429, a refusal passed on), or the
    /// provider's body, frame for frame, unbuffered.
    pub struct GuardedBody<B> {
        #[pin]
        kind: Kind<B>,
    }
}

pin_project! {
    #[project = KindProj]
    enum Kind<B> {
        Full { data: Option<Bytes> },
        Inner { #[pin] body: B, watch: Option<Box<Watch>> },
    }
}

impl<B> GuardedBody<B> {
    pub(crate) fn full(data: Bytes) -> Self {
        GuardedBody {
            kind: Kind::Full {
                data: (!data.is_empty()).then_some(data),
            },
        }
    }

    /// A body passed on with no call watching it (a request the layer does not guard).
    pub(crate) fn plain(body: B) -> Self {
        GuardedBody {
            kind: Kind::Inner { body, watch: None },
        }
    }

    pub(crate) fn watched(body: B, watch: Box<Watch>) -> Self {
        GuardedBody {
            kind: Kind::Inner {
                body,
                watch: Some(watch),
            },
        }
    }
}

impl<B> Body for GuardedBody<B>
where
    B: Body<Data = Bytes>,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match self.project().kind.project() {
            KindProj::Full { data } => Poll::Ready(data.take().map(|d| Ok(Frame::data(d)))),
            KindProj::Inner { body, watch } => match ready!(body.poll_frame(cx)) {
                Some(Ok(frame)) => {
                    if let (Some(w), Some(d)) = (watch.as_mut(), frame.data_ref()) {
                        w.chunk(d);
                    }
                    Poll::Ready(Some(Ok(frame)))
                }
                Some(Err(e)) => {
                    if let Some(mut w) = watch.take() {
                        w.failed();
                    }
                    Poll::Ready(Some(Err(e.into())))
                }
                None => {
                    if let Some(mut w) = watch.take() {
                        w.end();
                    }
                    Poll::Ready(None)
                }
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.kind {
            Kind::Full { data } => data.is_none(),
            // A watched body is polled to its end, so that the call settles.
            Kind::Inner { body, watch } => watch.is_none() && body.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match &self.kind {
            Kind::Full { data } => {
                SizeHint::with_exact(data.as_ref().map_or(0, |d| d.len() as u64))
            }
            Kind::Inner { body, .. } => body.size_hint(),
        }
    }
}
